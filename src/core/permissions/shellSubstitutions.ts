/**
 * The first pass over a command line: command substitutions (`$(…)`, backticks, `<(…)`) are cut
 * out and replaced with placeholders, so each body can be read as a command of its own and the
 * outer line still splits correctly. Quotes are honoured (nothing inside single quotes is a
 * substitution), comments dropped, unquoted newlines turned into `;`.
 */
import type { ShellFeature, Substitution } from './shellAnalysis.js';

export const placeholderPrefix = '__massgen_subst_';
export const placeholderPattern = /__massgen_subst_(\d+)__/g;
const placeholder = (index: number) => `${placeholderPrefix}${index}__`;

export interface Body {
	readonly kind: Substitution['kind'];
	readonly text: string;
}

/**
 * Replaces `$(…)`, backticks and `<(…)`/`>(…)` (outside single quotes) with placeholders and
 * returns their bodies; `$((…))` arithmetic becomes `0`; unquoted newlines become `;`;
 * comments are dropped.
 */
export function extractSubstitutions(
	raw: string,
	features: Set<ShellFeature>,
): { text: string; bodies: Body[] } {
	const bodies: Body[] = [];
	let out = '';
	let quote: '"' | "'" | null = null;
	let i = 0;
	const push = (kind: Body['kind'], body: string) => {
		bodies.push({ kind, text: body });
		// Part of the word it sits in, as in the shell: `x=$(ls)` stays one assignment.
		out += placeholder(bodies.length - 1);
	};
	while (i < raw.length) {
		const ch = raw[i]!;
		const next = raw[i + 1];
		if (quote === "'") {
			if (ch === "'") quote = null;
			out += ch;
			i++;
			continue;
		}
		if (ch === '\\') {
			out += raw.slice(i, i + 2);
			i += 2;
			continue;
		}
		if (quote === null && ch === '$' && next === "'") {
			// ANSI-C quoting: backslash escapes inside, no substitutions.
			const end = findAnsiEnd(raw, i + 2);
			out += raw.slice(i, end + 1);
			i = end + 1;
			continue;
		}
		if (ch === '"') {
			quote = quote === '"' ? null : '"';
			out += ch;
			i++;
			continue;
		}
		if (ch === "'" && quote === null) {
			quote = "'";
			out += ch;
			i++;
			continue;
		}
		if (ch === '`') {
			const end = findBacktickEnd(raw, i + 1);
			if (end < 0) features.add('unbalanced');
			features.add('substitution');
			push('command', raw.slice(i + 1, end < 0 ? raw.length : end).replace(/\\`/g, '`'));
			i = end < 0 ? raw.length : end + 1;
			continue;
		}
		if (ch === '$' && next === '(') {
			if (raw[i + 2] === '(') {
				const end = findClosingParen(raw, i + 3);
				const close = end < 0 ? -1 : raw[end + 1] === ')' ? end + 1 : end;
				if (close < 0) features.add('unbalanced');
				out += '0';
				i = close < 0 ? raw.length : close + 1;
				continue;
			}
			const end = findClosingParen(raw, i + 2);
			if (end < 0) features.add('unbalanced');
			features.add('substitution');
			push('command', raw.slice(i + 2, end < 0 ? raw.length : end));
			i = end < 0 ? raw.length : end + 1;
			continue;
		}
		if (quote === null && (ch === '<' || ch === '>') && next === '(') {
			const end = findClosingParen(raw, i + 2);
			if (end < 0) features.add('unbalanced');
			features.add('process-substitution');
			push('process', raw.slice(i + 2, end < 0 ? raw.length : end));
			i = end < 0 ? raw.length : end + 1;
			continue;
		}
		if (quote === null && ch === '#' && (i === 0 || /[\s;&|()]/.test(raw[i - 1]!))) {
			while (i < raw.length && raw[i] !== '\n') i++;
			continue;
		}
		if (quote === null && (ch === '\n' || ch === '\r')) {
			out += ' ; ';
			i++;
			continue;
		}
		out += ch;
		i++;
	}
	if (quote !== null) features.add('unbalanced');
	return { text: out, bodies };
}

function findAnsiEnd(raw: string, from: number): number {
	for (let i = from; i < raw.length; i++) {
		if (raw[i] === '\\') i++;
		else if (raw[i] === "'") return i;
	}
	return raw.length - 1;
}

function findBacktickEnd(raw: string, from: number): number {
	for (let i = from; i < raw.length; i++) {
		if (raw[i] === '\\') i++;
		else if (raw[i] === '`') return i;
	}
	return -1;
}

/** Index of the `)` closing a group opened just before `from`, honouring quotes; -1 if none. */
function findClosingParen(raw: string, from: number): number {
	let depth = 1;
	let quote: '"' | "'" | null = null;
	for (let i = from; i < raw.length; i++) {
		const ch = raw[i]!;
		if (quote === "'") {
			if (ch === "'") quote = null;
			continue;
		}
		if (ch === '\\') {
			i++;
			continue;
		}
		if (ch === '"') quote = quote === '"' ? null : '"';
		else if (ch === "'" && quote === null) quote = "'";
		else if (quote === null && ch === '(') depth++;
		else if (quote === null && ch === ')' && --depth === 0) return i;
	}
	return -1;
}
