import { isSafeRunId } from '../../contract/runId.js';

/** Where plan documents live, relative to a workspace folder (what the CodeLens and `when` clauses match). */
export const planDocumentGlob = '**/.massgen/plans/*.md';

/** Whether `path` (any separators) is a plan document: `<…>/.massgen/plans/<name>.md`. */
export function isPlanDocumentPath(path: string): boolean {
	return /(^|[\\/])\.massgen[\\/]plans[\\/][^\\/]+\.md$/.test(path);
}

/**
 * The planning run a plan document names in its front matter (`massgen: plan`, `run: <id>`), read
 * leniently (the user owns the rest of the document: a step they broke does not matter here).
 * Undefined without front matter, when it is not a plan's, or when the id is not a safe run id
 * (the document is the workspace's: it cannot point outside `.massgen/runs/`).
 */
export function planDocumentRun(text: string): string | undefined {
	const lines = text.split(/\r?\n/, 64);
	if (lines[0]?.trim() !== '---') return undefined;
	const fields = new Map<string, string>();
	for (const line of lines.slice(1)) {
		if (line.trim() === '---') {
			if (fields.get('massgen') !== 'plan') return undefined;
			const run = fields.get('run');
			return run !== undefined && isSafeRunId(run) ? run : undefined;
		}
		const field = /^([A-Za-z]+):\s*(.*?)\s*$/.exec(line);
		if (field) fields.set(field[1]!, unquote(field[2]!));
	}
	return undefined;
}

function unquote(value: string): string {
	const quoted = /^(['"])(.*)\1$/.exec(value);
	return quoted ? quoted[2]! : value;
}
