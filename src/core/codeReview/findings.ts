/**
 * Review severity, one vocabulary for every shell: `high` (a bug, security hole or data loss that
 * should block the change), `medium` (a real problem worth fixing first), `low` (a minor point).
 * `massgen review --fail-on`, its JSON and SARIF (`error`/`warning`/`note`) and the editor's thread
 * labels all use it. Models' other words are read too (`error`, `warning`, `info`, `critical`, `nit`…).
 */
export type Severity = 'high' | 'medium' | 'low';

/** Highest first. */
export const severityOrder: readonly Severity[] = ['high', 'medium', 'low'];

/** One review finding on 1-based file lines (`endLine` inclusive). */
export interface Finding {
	/** Workspace-relative file, in a review of several files (a diff); absent in a selection review. */
	readonly path?: string;
	readonly line: number;
	readonly endLine: number;
	readonly severity: Severity;
	/** A few words naming the problem (the model's `title`, else the message's first sentence, cut). */
	readonly title: string;
	/** What is wrong and why: the reason. */
	readonly message: string;
}

const severityWords: Record<string, Severity> = {
	high: 'high',
	critical: 'high',
	blocker: 'high',
	major: 'high',
	error: 'high',
	bug: 'high',
	medium: 'medium',
	moderate: 'medium',
	warning: 'medium',
	warn: 'medium',
	low: 'low',
	minor: 'low',
	info: 'low',
	information: 'low',
	note: 'low',
	nit: 'low',
	suggestion: 'low',
	style: 'low',
};

const MAX_MESSAGE_CHARS = 4_000;
const MAX_TITLE_CHARS = 100;
const MAX_PATH_CHARS = 1_000;

/** C0 and C1 controls, DEL, and format characters (bidi overrides, zero-width). */
const controlCharacters = /[\p{Cc}\p{Cf}]/u;

/** A positive integer line number (numeric strings accepted), else undefined. */
function lineNumber(value: unknown): number | undefined {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** One line, at most `max` characters (an ellipsis where it was cut). */
function short(text: string, max: number): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The model's title, else the message's first sentence (or clause before a colon). */
function titleOf(raw: unknown, message: string): string {
	if (typeof raw === 'string' && raw.trim() !== '') return short(raw, MAX_TITLE_CHARS);
	const first = /^(.+?)(?:[.!?](?:\s|$)|:\s)/s.exec(message)?.[1] ?? message;
	return short(first, 80);
}

/** One entry of a findings list, or undefined when it is not a usable finding. */
function toFinding(item: unknown): Finding | undefined {
	if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
	const raw = item as Record<string, unknown>;
	const line = lineNumber(raw.line);
	const text =
		typeof raw.message === 'string' ? raw.message : typeof raw.reason === 'string' ? raw.reason : '';
	const message = text.trim().slice(0, MAX_MESSAGE_CHARS);
	if (line === undefined || message === '') return undefined;
	const end = lineNumber(raw.endLine) ?? lineNumber(raw.end_line) ?? line;
	const word = typeof raw.severity === 'string' ? raw.severity.trim().toLowerCase() : '';
	const file = typeof raw.path === 'string' ? raw.path : typeof raw.file === 'string' ? raw.file : '';
	// A path with a line break, a control or an invisible character names no file of the diff; printed
	// (a terminal, a CI log, a SARIF reader) it could pass for lines the shell wrote itself.
	const trimmed = file.trim();
	const path = controlCharacters.test(trimmed) ? '' : trimmed.slice(0, MAX_PATH_CHARS);
	return {
		...(path ? { path } : {}),
		line,
		endLine: Math.max(line, end),
		severity: severityWords[word] ?? 'medium',
		title: titleOf(raw.title, message),
		message,
	};
}

/**
 * At most this many findings are read from one answer: a review lists a few dozen, and every one
 * is compared with every other agent's (`mergeFindings`), so a flood of them would stall the shell.
 */
export const maxFindingsPerAnswer = 100;

/**
 * Parses the findings of one answer: every fenced `findings` block (or a `json` block holding a
 * findings list) with a JSON array of {path?, line, endLine?, severity, title?, message}. Malformed
 * entries are dropped, never thrown; an answer without a block has no findings; at most
 * `maxFindingsPerAnswer` are kept. Linear in the answer's length (`fencedBlocks`).
 */
export function parseFindings(text: string): Finding[] {
	const findings: Finding[] = [];
	for (const block of fencedBlocks(text)) {
		let data: unknown;
		try {
			data = JSON.parse(block.body);
		} catch {
			continue;
		}
		const list = Array.isArray(data) ? data : isFindingsObject(data) ? data.findings : undefined;
		const parsed = (list ?? []).slice(0, maxFindingsPerAnswer * 2).map(toFinding);
		// A plain ```json block counts only when it is entirely findings.
		if (block.tag === 'json' && parsed.some((finding) => finding === undefined)) continue;
		for (const finding of parsed) {
			if (!finding) continue;
			findings.push(finding);
			if (findings.length === maxFindingsPerAnswer) return findings;
		}
	}
	return findings;
}

/** After a fence: blanks, then the tag the review prompts ask for (case-insensitive). */
const tagPattern = /[ \t]*(findings|json)/iy;

/**
 * Every ```findings (or ```json) block: the tag after a fence, the rest of that line skipped, the
 * body up to the next fence. Found with `indexOf`, never a backtracking pattern over the whole
 * answer: a model's answer of a few MiB of unclosed fences or blank lines must not stall the shell.
 */
function* fencedBlocks(text: string): Generator<{ readonly tag: string; readonly body: string }> {
	const fence = '```';
	let at = text.indexOf(fence);
	while (at >= 0) {
		tagPattern.lastIndex = at + fence.length;
		const tag = tagPattern.exec(text);
		if (!tag) {
			at = text.indexOf(fence, at + 1);
			continue;
		}
		// Neither a line end nor a closing fence later: no block can follow.
		const lineEnd = text.indexOf('\n', tagPattern.lastIndex);
		if (lineEnd < 0) return;
		const close = text.indexOf(fence, lineEnd + 1);
		if (close < 0) return;
		yield { tag: tag[1]!.toLowerCase(), body: text.slice(lineEnd + 1, close) };
		at = text.indexOf(fence, close + fence.length);
	}
}

function isFindingsObject(data: unknown): data is { findings: unknown[] } {
	return (
		typeof data === 'object' && data !== null && Array.isArray((data as { findings?: unknown }).findings)
	);
}
