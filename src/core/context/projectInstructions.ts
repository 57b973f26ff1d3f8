/**
 * The project's own instruction files (docs/context.md#project-instructions), read once per run
 * before the first event: `AGENTS.md` at the root and the nearest one above each file in play,
 * `CLAUDE.md`, `.github/copilot-instructions.md`, the `.github/instructions/*.instructions.md` whose
 * `applyTo` matches a file in play, and `.cursorrules`. Every file goes through `readInstructionFile`
 * (the secret-path policy; no link, FIFO or device is read); text is cut to a cap per file and one
 * for all of them. The repository may be hostile: a file that cannot be used is skipped with the
 * reason, never waited on.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { posix } from 'node:path';
import type { InstructionRecord } from '../../contract/runEvents.js';
import type { Workspace } from '../workspace/types.js';
import { readInstructionFile } from './instructionFile.js';
import { applies, parseFrontmatter } from './instructionFrontmatter.js';
import { formatBytes } from './resolveAttachments.js';

export interface InstructionLimits {
	/** UTF-8 bytes of one file the agents see. */
	readonly perFileBytes: number;
	/** UTF-8 bytes of all of them (every agent reads them in every first message). */
	readonly totalBytes: number;
}

export const defaultInstructionLimits: InstructionLimits = {
	perFileBytes: 32 * 1024,
	totalBytes: 64 * 1024,
};

/** One file the agents get. */
export interface InstructionFile {
	/** Workspace-relative, `/`-separated. */
	readonly path: string;
	/** What the agents get (front matter left out), with a "[truncated …]" note when cut. */
	readonly text: string;
	readonly truncated: boolean;
}

export interface ProjectInstructions {
	readonly files: readonly InstructionFile[];
	/** Files there but not used, with the reason naming the file (a link, a FIFO, a secret path, not text, over the caps). */
	readonly skipped: readonly { readonly path: string; readonly reason: string }[];
}

export const noInstructions: ProjectInstructions = { files: [], skipped: [] };

/** A file or folder the question or its attachments name (workspace-relative). */
export interface InPlay {
	readonly path: string;
	readonly folder: boolean;
}

/** At most this many nested `AGENTS.md` and `.instructions.md` files are looked at. */
const maxNested = 16;

export async function readProjectInstructions(
	workspace: Workspace,
	inPlay: readonly InPlay[],
	limits: InstructionLimits = defaultInstructionLimits,
	signal?: AbortSignal,
): Promise<ProjectInstructions> {
	const files: InstructionFile[] = [];
	const skipped: { path: string; reason: string }[] = [];
	const seen = new Set<string>();
	let left = limits.totalBytes;
	const paths = inPlay.map((entry) => entry.path);

	/** Reads `path` under the caps; `body` picks the part the agents get (and may refuse it). */
	const take = async (
		path: string,
		body: (text: string) => string | null = (text) => text,
	): Promise<'absent' | 'taken' | 'skipped'> => {
		if (seen.has(path) || signal?.aborted) return 'skipped';
		seen.add(path);
		const cap = Math.max(0, Math.min(limits.perFileBytes, left));
		const read = await readInstructionFile(workspace, path, cap);
		if (read.kind === 'absent') return 'absent';
		if (read.kind === 'refused') {
			skipped.push({ path: read.path, reason: read.reason });
			return 'skipped';
		}
		if (cap === 0) {
			const reason = `'${read.path}' left out: the ${formatBytes(limits.totalBytes)} cap for all instruction files is reached`;
			skipped.push({ path: read.path, reason });
			return 'skipped';
		}
		const text = body(read.text);
		if (text === null) return 'skipped';
		left -= Buffer.byteLength(text, 'utf8');
		const why =
			cap < limits.perFileBytes
				? `the ${formatBytes(limits.totalBytes)} cap for all instruction files is reached`
				: `the cap per instruction file is ${formatBytes(limits.perFileBytes)}`;
		const note = read.truncated
			? `\n[truncated: the first ${formatBytes(cap)} of ${formatBytes(read.size)}; ${why}]`
			: '';
		files.push({ path: read.path, text: `${text}${note}`, truncated: read.truncated });
		return 'taken';
	};

	await take('AGENTS.md');
	for (const folder of nearestFolders(inPlay)) {
		if (seen.size > maxNested) break;
		// The nearest AGENTS.md at or above the folder, below the root (taken above).
		for (let dir = folder; dir !== '.'; dir = posix.dirname(dir)) {
			const outcome = await take(`${dir}/AGENTS.md`);
			if (outcome !== 'absent') break;
		}
	}
	await take('CLAUDE.md');
	await take('.github/copilot-instructions.md');
	for (const name of await instructionFileNames(workspace, skipped)) {
		await take(`.github/instructions/${name}`, (text) => {
			const { applyTo, body } = parseFrontmatter(text);
			return applies(applyTo, paths) ? body : null;
		});
	}
	await take('.cursorrules');
	return { files, skipped };
}

/** The folders whose nearest `AGENTS.md` applies: each folder in play, each file's folder. */
function nearestFolders(inPlay: readonly InPlay[]): string[] {
	const folders = inPlay.map((entry) => (entry.folder ? entry.path : posix.dirname(entry.path)));
	return [...new Set(folders)].filter((folder) => folder !== '.' && folder !== '');
}

/** `.github/instructions/*.instructions.md`, sorted; a linked or special folder is skipped with the reason. */
async function instructionFileNames(
	workspace: Workspace,
	skipped: { path: string; reason: string }[],
): Promise<string[]> {
	const folder = '.github/instructions';
	const resolved = await workspace.resolve(folder, 'read');
	if (!resolved.ok) {
		skipped.push({ path: folder, reason: resolved.reason });
		return [];
	}
	const info = await lstat(resolved.absolute).catch(() => null);
	if (info === null) return [];
	if (!info.isDirectory()) {
		skipped.push({ path: folder, reason: `'${folder}' is not a folder (a link or a file): it is not read` });
		return [];
	}
	const entries = await readdir(resolved.absolute).catch(() => []);
	return entries
		.filter((name) => name.endsWith('.instructions.md'))
		.sort()
		.slice(0, maxNested);
}

/** What `run-start` records of a used file: no contents. */
export function instructionRecord(file: InstructionFile): InstructionRecord {
	const data = Buffer.from(file.text, 'utf8');
	return {
		path: file.path,
		bytes: data.byteLength,
		sha256: createHash('sha256').update(data).digest('hex'),
		...(file.truncated ? { truncated: true } : {}),
	};
}
