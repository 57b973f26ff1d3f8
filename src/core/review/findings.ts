import { z } from 'zod';

export type Severity = 'error' | 'warning' | 'info';

/** One review finding on 1-based file lines (`endLine` inclusive). */
export interface Finding {
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

const rawFinding = z.object({
	line: z.coerce.number().int().positive(),
	endLine: z.coerce.number().int().positive().optional(),
	end_line: z.coerce.number().int().positive().optional(),
	severity: z.string().optional(),
	message: z.string().trim().min(1).max(4_000),
});

/** The ```findings block the review prompt asks for (one or more; ```json blocks of findings count too). */
const blockPattern = /```[ \t]*(findings|json)[^\n]*\n([\s\S]*?)```/gi;

/**
 * Parses the findings of one answer: every fenced `findings` block (or a `json` block holding a
 * findings list) with a JSON array of {line, endLine?, severity, message}. Malformed entries are
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
		if (!list || (match[1]!.toLowerCase() === 'json' && !list.every((item) => rawFinding.safeParse(item).success))) continue;
		for (const item of list) {
			const parsed = rawFinding.safeParse(item);
			if (!parsed.success) continue;
			const { line, message } = parsed.data;
			const end = parsed.data.endLine ?? parsed.data.end_line ?? line;
			const severity = severities[(parsed.data.severity ?? 'warning').trim().toLowerCase()] ?? 'warning';
			findings.push({ line, endLine: Math.max(line, end), severity, message });
		}
	}
	return findings;
}

function isFindingsObject(data: unknown): data is { findings: unknown[] } {
	return typeof data === 'object' && data !== null && Array.isArray((data as { findings?: unknown }).findings);
}
