/**
 * Static reading of a shell command line for the permission engine: splits compound commands
 * (`;`, `&&`, `||`, `|`, `&`, newlines, subshells), pulls out command substitutions (`$(…)`,
 * backticks, `<(…)`) and nested scripts (`sh -c`, `eval`, `find -exec`, `xargs`) as parts of
 * their own, and removes quoting (so `r''m` reads as `rm`). Every part must pass on its own.
 */
import { parse, type ParseEntry } from 'shell-quote';
import type { CommandPart, Redirect, ShellAnalysis, ShellFeature, Substitution } from './shellAnalysis.js';
import { extractSubstitutions, placeholderPattern, placeholderPrefix } from './shellSubstitutions.js';

const maxDepth = 4;

const separators = new Set([';', '&&', '||', '|', '|&', '&', ';;', '(', ')']);
const redirectOps = new Set(['>', '>>', '<', '>&', '<&', '>|', '&>', '&>>', '<<', '<<<', '<>']);

export const shellNames = new Set([
	'sh',
	'bash',
	'zsh',
	'dash',
	'ksh',
	'mksh',
	'ash',
	'fish',
	'csh',
	'tcsh',
	'busybox',
]);

/** Reads a command line. Never throws: what cannot be read is reported as a feature. */
export function analyseShell(raw: string): ShellAnalysis {
	const state: State = { parts: [], substitutions: [], features: new Set() };
	read(raw, 'top', 0, state);
	return { raw, parts: state.parts, substitutions: state.substitutions, features: state.features };
}

interface State {
	parts: CommandPart[];
	substitutions: Substitution[];
	features: Set<ShellFeature>;
}

function read(raw: string, origin: CommandPart['origin'], depth: number, state: State): string[] {
	if (depth > maxDepth) {
		state.features.add('too-deep');
		return [];
	}
	const first = state.parts.length;
	const { text, bodies } = extractSubstitutions(raw, state.features);
	// Substitutions are read first so their indexes are known to the parts that use them.
	const indexes = bodies.map((body) => {
		const index = state.substitutions.length;
		state.substitutions.push({ kind: body.kind, body: body.text, programs: [] });
		const programs = read(body.text, 'substitution', depth + 1, state);
		state.substitutions[index] = { kind: body.kind, body: body.text, programs };
		return index;
	});
	let entries: ParseEntry[];
	try {
		entries = parse(text, (key) => `$${key}`) as ParseEntry[];
	} catch {
		state.features.add('unbalanced');
		entries = text.split(/\s+/).filter(Boolean);
	}
	splitParts(entries, origin, depth, state, indexes);
	return state.parts
		.slice(first)
		.map((part) => part.name)
		.filter(Boolean);
}

interface RawPart {
	words: string[];
	redirects: Redirect[];
}

function splitParts(
	entries: readonly ParseEntry[],
	origin: CommandPart['origin'],
	depth: number,
	state: State,
	substitutionIndexes: readonly number[],
): void {
	let current: RawPart = { words: [], redirects: [] };
	let pendingRedirect: string | null = null;
	let upstream: string[] = [];
	const finish = (separator: string | null) => {
		if (current.words.length > 0 || current.redirects.length > 0) {
			const part = buildPart(current, origin, upstream, depth, state, substitutionIndexes);
			upstream = separator === '|' || separator === '|&' ? [...upstream, part.name] : [];
		} else if (separator !== '|' && separator !== '|&') {
			upstream = [];
		}
		current = { words: [], redirects: [] };
	};
	for (const entry of entries) {
		if (typeof entry === 'string' || 'pattern' in entry) {
			const word = typeof entry === 'string' ? entry : entry.pattern;
			if (pendingRedirect !== null) {
				// `>&1`, `2>&-`: a file-descriptor copy, not a file.
				if (!((pendingRedirect === '>&' || pendingRedirect === '<&') && /^(\d+|-)$/.test(word))) {
					current.redirects.push({ op: pendingRedirect, target: word });
				}
				pendingRedirect = null;
			} else {
				current.words.push(word);
			}
			continue;
		}
		if ('comment' in entry) continue;
		const op: string = entry.op;
		if (redirectOps.has(op)) {
			if (op === '<<') state.features.add('heredoc');
			// A trailing descriptor number (`2>`) belongs to the redirection, not the words.
			if (/^\d+$/.test(current.words.at(-1) ?? '') && current.words.length > 1) current.words.pop();
			pendingRedirect = op;
			continue;
		}
		if (separators.has(op)) {
			if (op === '&') state.features.add('background');
			if (op === '(' || op === ')') state.features.add('subshell');
			pendingRedirect = null;
			finish(op);
			continue;
		}
		// Any other operator (e.g. `<(` left by an unbalanced line) is kept as a word.
		current.words.push(op);
	}
	finish(null);
}

/** Words that group or negate and carry no meaning of their own in command position. */
const groupingWords = new Set([
	'{',
	'}',
	'!',
	'then',
	'do',
	'else',
	'elif',
	'if',
	'while',
	'until',
	'fi',
	'done',
	'time',
]);

function buildPart(
	raw: RawPart,
	origin: CommandPart['origin'],
	upstream: readonly string[],
	depth: number,
	state: State,
	substitutionIndexes: readonly number[],
): CommandPart {
	const words = [...raw.words];
	while (words.length > 0 && groupingWords.has(words[0]!)) words.shift();
	while (words.length > 0 && (words.at(-1) === '}' || words.at(-1) === 'fi' || words.at(-1) === 'done')) {
		words.pop();
	}
	const assignments: string[] = [];
	while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) assignments.push(words.shift()!);
	const { program, wrappers, nested } = unwrap(words);
	const name = baseName(program[0] ?? '');
	if (program[0] !== undefined && (program[0].startsWith('$') || program[0].includes(placeholderPrefix))) {
		state.features.add('variable-program');
	}
	const substitutions = [
		...[...words, ...raw.redirects.map((r) => r.target), ...assignments]
			.join(' ')
			.matchAll(placeholderPattern),
	]
		.map((match) => substitutionIndexes[Number(match[1])] ?? -1)
		.filter((index) => index >= 0);
	const part: CommandPart = {
		words,
		program,
		name,
		wrappers,
		assignments,
		redirects: raw.redirects,
		origin,
		upstream,
		substitutions,
		text: words.join(' '),
	};
	state.parts.push(part);
	for (const script of [...nested, ...nestedScripts(program, name, state.features)]) {
		read(script, 'nested', depth + 1, state);
	}
	return part;
}

/** Lower-case base name of a program word (`/usr/bin/rm` → `rm`, `C:\\x\\RM.EXE` → `rm.exe`). */
export function baseName(word: string): string {
	return word.replace(/^\\+/, '').split(/[\\/]/).pop()!.toLowerCase();
}

/** Wrapper programs, with the options that take a value (skipped together with it). */
const wrapperOptions: Readonly<Record<string, ReadonlySet<string>>> = {
	sudo: new Set([
		'-u',
		'-g',
		'-h',
		'-p',
		'-C',
		'-D',
		'-r',
		'-t',
		'-U',
		'-T',
		'--user',
		'--group',
		'--host',
		'--prompt',
		'--chdir',
	]),
	doas: new Set(['-u', '-C']),
	pkexec: new Set(['--user']),
	run0: new Set(['-u', '--user']),
	env: new Set(['-u', '-C', '--unset', '--chdir']),
	nice: new Set(['-n', '--adjustment']),
	ionice: new Set(['-c', '-n', '-p', '--class', '--classdata']),
	nohup: new Set(),
	time: new Set(['-f', '-o', '--format', '--output']),
	timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
	stdbuf: new Set(['-i', '-o', '-e']),
	command: new Set(),
	builtin: new Set(),
	exec: new Set(['-a']),
	setsid: new Set(),
	unbuffer: new Set(),
	xargs: new Set([
		'-I',
		'-n',
		'-P',
		'-d',
		'-E',
		'-L',
		'-s',
		'-a',
		'--max-args',
		'--max-procs',
		'--delimiter',
		'--arg-file',
	]),
	watch: new Set(['-n', '-d', '--interval']),
	chroot: new Set(['--userspec', '--groups']),
	flock: new Set(['-w', '-E', '--timeout']),
	taskset: new Set(),
};

/** Strips wrappers (`sudo -u x`, `env A=1`, `timeout 5`, `xargs -n1`, …) to reach the real program. */
function unwrap(words: readonly string[]): { program: string[]; wrappers: string[]; nested: string[] } {
	let rest = [...words];
	const wrappers: string[] = [];
	const nested: string[] = [];
	for (let guard = 0; guard < 16 && rest.length > 0; guard++) {
		const name = baseName(rest[0]!);
		const options = wrapperOptions[name];
		if (options === undefined) break;
		// `command -v x` / `type`: a lookup, not a run.
		if (name === 'command' && /^-[vV]$/.test(rest[1] ?? '')) break;
		wrappers.push(name);
		let i = 1;
		while (i < rest.length) {
			const word = rest[i]!;
			if (word === '--') {
				i++;
				break;
			}
			if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
				i++;
				continue;
			}
			if (name === 'env' && (word === '-S' || word === '--split-string')) {
				nested.push(rest.slice(i + 1).join(' '));
				return { program: [], wrappers, nested };
			}
			if (!word.startsWith('-') || word === '-') break;
			i += options.has(word) ? 2 : 1;
		}
		// Positional arguments before the command: `timeout 5 cmd`, `chroot DIR cmd`, `flock FILE cmd`, `taskset MASK cmd`.
		if (
			(name === 'timeout' || name === 'chroot' || name === 'flock' || name === 'taskset') &&
			i < rest.length
		) {
			i++;
		}
		if ((name === 'nice' || name === 'ionice') && /^-\d+$/.test(rest[i] ?? '')) i++;
		// `watch 'cmd args'` and `sudo -s 'cmd'` take the command as one string.
		if (name === 'watch' && rest.length - i === 1) {
			nested.push(rest[i]!);
			return { program: [], wrappers, nested };
		}
		rest = rest.slice(i);
	}
	return { program: rest, wrappers, nested };
}

/** Scripts a program runs that are themselves shell: `sh -c S`, `eval S`, `find -exec C ;`, `su -c S`. */
function nestedScripts(program: readonly string[], name: string, features: Set<ShellFeature>): string[] {
	if (program.length === 0) return [];
	if (shellNames.has(name)) {
		const start = name === 'busybox' && shellNames.has(baseName(program[1] ?? '')) ? 2 : 1;
		for (let i = start; i < program.length; i++) {
			const word = program[i]!;
			if (word === '--' || !word.startsWith('-')) break;
			if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(word) || word === '--command') {
				features.add('nested-shell');
				return program[i + 1] === undefined ? [] : [program[i + 1]!];
			}
			if (word === '-o' || word === '+o') i++;
		}
		return [];
	}
	if (name === 'su' || name === 'runuser') {
		const at = program.findIndex((word) => word === '-c' || word === '--command');
		if (at > 0 && program[at + 1] !== undefined) {
			features.add('nested-shell');
			return [program[at + 1]!];
		}
		return [];
	}
	if (name === 'eval') {
		features.add('eval');
		return [program.slice(1).join(' ')];
	}
	if (name === 'find') {
		const scripts: string[] = [];
		for (let i = 1; i < program.length; i++) {
			if (!['-exec', '-execdir', '-ok', '-okdir'].includes(program[i]!)) continue;
			const end = program.findIndex((word, j) => j > i && (word === ';' || word === '+' || word === '\\;'));
			const words = program.slice(i + 1, end < 0 ? undefined : end);
			if (words.length > 0) scripts.push(quoteWords(words));
			if (end < 0) break;
			i = end;
		}
		return scripts;
	}
	return [];
}

/** Re-quotes words so a nested read sees the same words (single quotes, escaped). */
function quoteWords(words: readonly string[]): string {
	return words
		.map((word) => (/^[A-Za-z0-9_./=:@%+,{}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
		.join(' ');
}

/** A part's text for people: substitution placeholders shown as `$(…)`. */
export function displayText(text: string): string {
	return text.replace(placeholderPattern, '$(…)');
}

/** Whether a word is (or contains) a substitution placeholder. */
export function hasPlaceholder(word: string): boolean {
	return word.includes(placeholderPrefix);
}
