/**
 * ripgrep as `search_files`' disk engine: the CLI finds `rg` on `PATH`, VS Code ships one under its
 * `appRoot`. rg runs out of process (the event loop stays free) and its default engine is a finite
 * automaton, linear in the input like RE2, so no pattern can backtrack; patterns rg cannot run
 * (lookbehind, `\Q…\E`, `\n`) make the tool fall back to its own walker.
 */
import { spawn } from 'node:child_process';
import { ToolError } from './defineTool.js';
import { maxWalkDepth } from './workspaceWalk.js';

export interface RipgrepMatch {
	/** Workspace-relative, `/`-separated. */
	readonly path: string;
	readonly line: number;
	readonly text: string;
}

export interface RipgrepSearch {
	readonly binary: string;
	/** The workspace root (rg's working directory). */
	readonly root: string;
	/** A workspace-relative folder. */
	readonly start: string;
	readonly pattern: string;
	/** false: an explicitly named ignored folder, searched whole (as the walker does without its filter). */
	readonly respectIgnores: boolean;
	/** Results in path order (rg then walks on one thread); unsorted, they come faster and in any order. */
	readonly sorted: boolean;
	readonly signal: AbortSignal;
	/** How long rg may run before it is stopped. */
	readonly timeLeftMs: number;
}

/** `unsupported`: rg could not run (missing, too old, a pattern its engine lacks): use the walker. */
export type RipgrepEnd = 'done' | 'stopped' | 'late' | 'unsupported';

/** Longer lines come back cut (we print 300 characters of a line at most): less to pipe and decode. */
const maxColumns = 4096;

/**
 * The ignore rules of the walker: `.gitignore` files (root and nested, with or without a
 * repository; for a subfolder, those of the folders above it too), nothing else (no global
 * excludes, `.ignore`/`.rgignore` or a user's rg config); hidden files included; `.git`,
 * `.massgen` (and, filtered, `node_modules`) never entered; files over 1 MB and binary files skipped. Sorted, results come in the walker's
 * order, so the first 200 are the same 200.
 */
export function ripgrepArgs(
	search: Omit<RipgrepSearch, 'binary' | 'signal' | 'timeLeftMs' | 'root'>,
): string[] {
	return [
		'--no-config',
		'--engine',
		'default',
		...(search.respectIgnores
			? ['--no-require-git', '--no-ignore-global', '--no-ignore-dot', '--no-ignore-exclude']
			: ['--no-ignore']),
		'--hidden',
		'--glob-case-insensitive',
		'-g',
		'!.git',
		'-g',
		'!.massgen',
		...(search.respectIgnores ? ['-g', '!node_modules'] : []),
		// A subfolder's search needs the .gitignore files above it; the caller has checked none lies above the root.
		...(search.start === '.' ? ['--no-ignore-parent'] : []),
		'--max-filesize',
		'1M',
		// The walker's depth: files in folders up to `maxWalkDepth` levels below the start.
		'--max-depth',
		String(maxWalkDepth + 1),
		...(search.sorted ? ['--sort', 'path'] : []),
		'--null',
		'--line-number',
		'--with-filename',
		'--no-heading',
		'--color',
		'never',
		'--path-separator',
		'/',
		'--max-columns',
		String(maxColumns),
		'--max-columns-preview',
		'-e',
		search.pattern,
		'--',
		search.start,
	];
}

/**
 * Runs rg and hands each match to `onMatch` (in path order) until it returns false; then rg is
 * killed. rg is killed too when the signal aborts (the call throws 'cancelled') or when its time is up (`timeLeftMs`).
 */
export async function ripgrepSearch(
	search: RipgrepSearch,
	onMatch: (match: RipgrepMatch) => Promise<boolean>,
): Promise<RipgrepEnd> {
	const child = spawn(search.binary, ripgrepArgs(search), {
		cwd: search.root,
		stdio: ['ignore', 'pipe', 'ignore'],
		windowsHide: true,
	});
	const closed = new Promise<number | null>((resolve) => {
		child.on('error', () => resolve(null));
		child.on('close', (code) => resolve(code));
	});
	let late = false;
	const kill = () => child.kill('SIGKILL');
	const timer = setTimeout(() => {
		late = true;
		kill();
	}, search.timeLeftMs);
	search.signal.addEventListener('abort', kill, { once: true });
	const parser = new MatchParser();
	let matched = false;
	let stopped = false;
	try {
		reading: for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
			for (const match of parser.push(chunk)) {
				matched = true;
				if (!(await onMatch(match))) {
					stopped = true;
					kill();
					break reading;
				}
			}
		}
		const code = await closed;
		if (search.signal.aborted) throw new ToolError('cancelled');
		if (stopped) return 'stopped';
		if (late) return 'late';
		// 1 = no match; 2 with output = some files were unreadable (skipped, as the walker does).
		if (code === 0 || code === 1 || (code === 2 && matched)) return 'done';
		return 'unsupported';
	} finally {
		clearTimeout(timer);
		search.signal.removeEventListener('abort', kill);
		kill();
	}
}

/** Parses rg's `path NUL line ':' text LF` records from a byte stream (a path may hold any byte but NUL). */
class MatchParser {
	private pending = Buffer.alloc(0);

	*push(chunk: Buffer): Generator<RipgrepMatch> {
		let buffer = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
		for (;;) {
			const nul = buffer.indexOf(0);
			if (nul === -1) break;
			const end = buffer.indexOf(10, nul + 1);
			if (end === -1) break;
			const record = buffer.subarray(nul + 1, end).toString('utf8');
			const colon = record.indexOf(':');
			const path = buffer.subarray(0, nul).toString('utf8').replace(/^\.\//, '');
			buffer = buffer.subarray(end + 1);
			if (colon === -1) continue;
			yield { path, line: Number(record.slice(0, colon)), text: record.slice(colon + 1) };
		}
		this.pending = Buffer.from(buffer);
	}
}
