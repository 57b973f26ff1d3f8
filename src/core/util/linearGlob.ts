/**
 * Globs matched in linear time. picomatch compiles a glob to a backtracking JS RegExp: a
 * repository's `secret_paths: ["*a*a*a*a*a*a*a*a*a*a*b"]` (or a permission rule, or a workspace
 * `massgen.secretPaths`, all honoured untrusted because they only tighten) against a 40-character
 * name held the engine for minutes, past `--timeout` and SIGTERM. Here the glob becomes an RE2
 * expression (`re2js`), as the command filters' regexes already are.
 *
 * Syntax: `*`, `?`, `**` (a whole segment: any number of folders), `[abc]`, `[!a-z]` / `[^a-z]`,
 * `{a,b}` (nested), `\` escapes the next character. Anything else is literal.
 */
import { RE2JS } from 're2js';

export interface GlobOptions {
	/** `*` and `?` also match `/` (the permission rules' bash flavour); otherwise one segment each. */
	readonly crossSlash: boolean;
	readonly nocase?: boolean;
}

/** A matcher of whole strings against `glob`. */
export function compileGlob(glob: string, options: GlobOptions): (candidate: string) => boolean {
	const source = `^(?:${translate(glob, options)})$`;
	const regex = RE2JS.compile(source, options.nocase === true ? RE2JS.CASE_INSENSITIVE : 0);
	return (candidate) => regex.matches(candidate);
}

function translate(glob: string, options: GlobOptions): string {
	const any = options.crossSlash ? '.' : '[^/]';
	let out = '';
	for (let i = 0; i < glob.length; i++) {
		const ch = glob[i]!;
		if (ch === '\\') {
			out += i + 1 < glob.length ? escape(glob[++i]!) : '\\\\';
		} else if (ch === '*') {
			const double = glob[i + 1] === '*';
			const segmentStart = i === 0 || glob[i - 1] === '/';
			const segmentEnd = i + 2 >= glob.length || glob[i + 2] === '/';
			if (double && segmentStart && segmentEnd) {
				// `**/` (zero or more folders) or a trailing `/**` (everything below).
				if (i + 2 < glob.length) {
					out += options.crossSlash ? '(?:.*/)?' : '(?:[^/]*/)*';
					i += 2;
				} else {
					out += '.*';
					i += 1;
				}
			} else {
				while (glob[i + 1] === '*') i++;
				out += `${any}*`;
			}
		} else if (ch === '?') {
			out += any;
		} else if (ch === '[') {
			const end = classEnd(glob, i);
			if (end < 0) out += '\\[';
			else {
				let body = glob.slice(i + 1, end);
				const negated = body.startsWith('!') || body.startsWith('^');
				if (negated) body = body.slice(1);
				const inner = body.replace(/\\(.)/g, '$1').replace(/[\\\]^[]/g, (c) => `\\${c}`);
				out += negated ? `[^${options.crossSlash ? '' : '/'}${inner}]` : `[${inner}]`;
				i = end;
			}
		} else if (ch === '{') {
			const end = braceEnd(glob, i);
			if (end < 0) out += '\\{';
			else {
				const alternatives = splitTop(glob.slice(i + 1, end)).map((part) => translate(part, options));
				out += `(?:${alternatives.join('|')})`;
				i = end;
			}
		} else {
			out += escape(ch);
		}
	}
	return out;
}

/** Index of the `]` closing the class opened at `start`, or -1 (then `[` is literal). */
function classEnd(glob: string, start: number): number {
	let i = start + 1;
	if (glob[i] === '!' || glob[i] === '^') i++;
	if (glob[i] === ']') i++;
	for (; i < glob.length; i++) {
		if (glob[i] === '\\') i++;
		else if (glob[i] === ']') return i;
	}
	return -1;
}

/** Index of the `}` closing the brace opened at `start` (nesting and escapes counted), or -1. */
function braceEnd(glob: string, start: number): number {
	let depth = 0;
	for (let i = start; i < glob.length; i++) {
		if (glob[i] === '\\') i++;
		else if (glob[i] === '{') depth++;
		else if (glob[i] === '}' && --depth === 0) return i;
	}
	return -1;
}

/** `a,{b,c},d` → `a`, `{b,c}`, `d`: commas outside nested braces. */
function splitTop(body: string): string[] {
	const parts: string[] = [];
	let depth = 0;
	let from = 0;
	for (let i = 0; i < body.length; i++) {
		if (body[i] === '\\') i++;
		else if (body[i] === '{') depth++;
		else if (body[i] === '}') depth--;
		else if (body[i] === ',' && depth === 0) {
			parts.push(body.slice(from, i));
			from = i + 1;
		}
	}
	parts.push(body.slice(from));
	return parts;
}

function escape(ch: string): string {
	return /[\\^$.|?*+()[\]{}]/.test(ch) ? `\\${ch}` : ch;
}
