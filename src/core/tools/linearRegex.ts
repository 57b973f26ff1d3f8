import { RE2JS } from 're2js';
import { ToolError } from './defineTool.js';

/**
 * A model-chosen pattern compiled for RE2 (re2js), whose matching time is linear in the input:
 * no pattern can backtrack for minutes and block the event loop, as `^(a+)+$` did with RegExp.
 * The price is RE2's syntax: no backreferences or lookahead (captureless lookbehind is on).
 */
export interface LinearRegex {
	test(line: string): boolean;
	/** RE2's cost measure: matching a line costs about this many steps per character, at worst. */
	readonly programSize: number;
	/** The pattern in RE2's own syntax (JavaScript escapes rewritten), as other RE2-like engines take it. */
	readonly source: string;
}

/** A pattern this large is a mistake or an attack; RE2 caps repeats at 1000, not their product. */
const maxProgramSize = 2_000;
const maxPatternChars = 2_000;

export function compileLinear(pattern: string): LinearRegex {
	if (pattern.length > maxPatternChars) {
		throw new ToolError(
			`the pattern has ${pattern.length} characters (at most ${maxPatternChars}): shorten it`,
		);
	}
	const source = fromJavaScript(pattern);
	let compiled: RE2JS;
	try {
		compiled = RE2JS.compile(source, RE2JS.LOOKBEHINDS);
	} catch (error) {
		throw new ToolError(`invalid regular expression /${pattern}/: ${explain((error as Error).message)}`);
	}
	const programSize = compiled.programSize();
	if (programSize > maxProgramSize) {
		throw new ToolError(
			`the regular expression /${pattern}/ is too complex (${programSize} RE2 instructions, at most ` +
				`${maxProgramSize}): use smaller repeat counts or fewer alternatives`,
		);
	}
	return { test: (line) => compiled.test(line), programSize, source };
}

/** JavaScript escapes RE2 spells differently: `\uFFFF` and `\u{1F600}` are `\x{…}` in RE2. */
function fromJavaScript(pattern: string): string {
	return pattern.replace(
		/(\\*)\\u(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4}))/g,
		(whole, slashes: string, braced, plain) =>
			// An even run of backslashes before it escapes the backslash itself: then `\u` is literal.
			slashes.length % 2 === 0 ? `${slashes}\\x{${braced ?? plain}}` : whole,
	);
}

/** RE2's parse error, with what to write instead for the JavaScript features it lacks. */
function explain(message: string): string {
	const fragment = /`([^`]*)`\s*$/.exec(message)?.[1] ?? '';
	const why = message.replace(/^error parsing regexp: /, '');
	const engine = 'search_files uses RE2, a linear-time engine';
	if (/^\\[1-9]|^\\k/.test(fragment)) {
		return `backreferences (\\1, \\k<name>) are not supported (${engine}): search for one occurrence and read the lines around it`;
	}
	if (fragment.startsWith('(?=') || fragment.startsWith('(?!')) {
		return `lookahead ((?=…), (?!…)) is not supported (${engine}): match the following text itself, e.g. 'foo(?=bar)' → 'foobar'`;
	}
	if (fragment.startsWith('(?>') || /nested repetition/.test(message)) {
		return `atomic groups and possessive quantifiers (?>…, a++, a*+) are not supported (${engine}): drop the extra '+' or '(?>'`;
	}
	return `${why} (${engine}; see https://github.com/google/re2/wiki/Syntax)`;
}
