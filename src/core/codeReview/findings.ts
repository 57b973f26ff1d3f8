export type Severity = 'error' | 'warning' | 'info';

/** One review finding on 1-based file lines (`endLine` inclusive). */
export interface Finding {
	/** Workspace-relative file, in a review of several files (a diff); absent in a selection review. */
	readonly path?: string;
	readonly line: number;
	readonly endLine: number;
	readonly severity: Severity;
	readonly message: string;
}

const severities: Record<string, Severity> = {
	error: 'error',
	critical: 'error',
	high: 'error',
	bug: 'error',
	warning: 'warning',
	warn: 'warning',
	medium: 'warning',
	info: 'info',
	information: 'info',
	low: 'info',
	note: 'info',
	nit: 'info',
	suggestion: 'info',
};

const MAX_MESSAGE_CHARS = 4_000;
const MAX_PATH_CHARS = 1_000;

/** A positive integer line number (numeric strings accepted), else undefined. */
function lineNumber(value: unknown): number | undefined {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}

/** One entry of a findings list, or undefined when it is not a usable finding. */
function toFinding(item: unknown): Finding | undefined {
	if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
	const raw = item as Record<string, unknown>;
	const line = lineNumber(raw.line);
	const message = typeof raw.message === 'string' ? raw.message.trim().slice(0, MAX_MESSAGE_CHARS) : '';
	if (line === undefined || message === '') return undefined;
	const end = lineNumber(raw.endLine) ?? lineNumber(raw.end_line) ?? line;
	const word = typeof raw.severity === 'string' ? raw.severity.trim().toLowerCase() : 'warning';
	const file = typeof raw.path === 'string' ? raw.path : typeof raw.file === 'string' ? raw.file : '';
	const path = file.trim().slice(0, MAX_PATH_CHARS);
	return {
		...(path ? { path } : {}),
		line,
		endLine: Math.max(line, end),
		severity: severities[word] ?? 'warning',
		message,
	};
}

/** The ```findings block the review prompt asks for (one or more; ```json blocks of findings count too). */
const blockPattern = /```[ \t]*(findings|json)[^\n]*\n([\s\S]*?)```/gi;

/**
 * Parses the findings of one answer: every fenced `findings` block (or a `json` block holding a
 * findings list) with a JSON array of {path?, line, endLine?, severity, message}. Malformed entries are
 * dropped, never thrown; an answer without a block has no findings.
 */
export function parseFindings(text: string): Finding[] {
	const findings: Finding[] = [];
	for (const match of text.matchAll(blockPattern)) {
		let data: unknown;
		try {
			data = JSON.parse(match[2]!);
		} catch {
			continue;
		}
		const list = Array.isArray(data) ? data : isFindingsObject(data) ? data.findings : undefined;
		const parsed = (list ?? []).map(toFinding);
		// A plain ```json block counts only when it is entirely findings.
		if (match[1]!.toLowerCase() === 'json' && parsed.some((finding) => finding === undefined)) continue;
		for (const finding of parsed) if (finding) findings.push(finding);
	}
	return findings;
}

function isFindingsObject(data: unknown): data is { findings: unknown[] } {
	return (
		typeof data === 'object' && data !== null && Array.isArray((data as { findings?: unknown }).findings)
	);
}
