/**
 * `search_files` with ripgrep reading the disk. The run's own view wins over the disk: every path
 * the run has captured (`RunSnapshot`) or this agent has edited is searched in memory as the
 * overlay shows it, and rg's results for those paths are dropped; rg covers only the files nobody
 * in the run has touched. rg's results, sorted, and the in-memory files are merged in path order,
 * so the result is the walker's.
 * Every rg result passes the workspace's path policy (secret paths, `.git/`, `.massgen/`, links
 * leading out) before it is shown: rg's own excludes are a speed-up, not the guard.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isSameOrInside } from '../workspace/pathPolicy.js';
import type { Overlay } from '../workspace/types.js';
import type { GitignoreFilter } from './gitignoreFilter.js';
import { type RipgrepEnd, type RipgrepMatch, ripgrepSearch } from './ripgrep.js';
import { comparePaths } from './searchSources.js';

export interface DiskSearch {
	readonly binary: string;
	readonly overlay: Overlay;
	/** A workspace-relative folder. */
	readonly start: string;
	readonly pattern: string;
	/** Omitted for an explicitly named ignored folder (searched whole). */
	readonly filter: GitignoreFilter | undefined;
	readonly signal: AbortSignal;
	/** `now()` past which rg is stopped. */
	readonly deadline: number;
	readonly now: () => number;
	/** Searches one file in memory as the overlay shows it; false stops the search. */
	readonly searchFile: (path: string) => Promise<boolean>;
	/** Records one match; false stops the search. */
	readonly add: (path: string, line: number, text: string) => boolean;
}

/** More matches than this from an unsorted search: the result will be cut, and a sorted search finds the first ones. */
const maxUnsorted = 1_000;

/** 'unsupported' before any result: rg could not run this search, and the caller walks instead. */
export async function searchDisk(search: DiskSearch): Promise<RipgrepEnd> {
	const { overlay, start } = search;
	// rg reads a subfolder's parent .gitignore files all the way up; the walker stops at the root.
	if (start !== '.' && search.filter && gitignoreAbove(overlay.workspace.root)) return 'unsupported';
	const edits = overlay.snapshot().edits;
	// Paths whose text the run decides (captured, edited, deleted): never taken from rg.
	const owned = new Set<string>(edits.keys());
	const found = new Set<string>();
	const consider = async (path: string): Promise<void> => {
		if (path === start || !isSameOrInside(path, start)) return;
		if (search.filter && (await search.filter.ignoresPath(path, false))) return;
		found.add(path);
	};
	for (const [path, content] of edits) if (content !== null) await consider(path);
	for (const [path, entry] of overlay.workspace.runSnapshot.captured()) {
		if (owned.has(path)) continue;
		owned.add(path);
		if (entry.kind !== 'absent') await consider(path);
	}
	const inMemory = [...found].sort(comparePaths);

	let next = 0;
	/** Searches the in-memory files that come before `path` (all of them without one). */
	const memoryUpTo = async (path?: string): Promise<boolean> => {
		while (next < inMemory.length && (path === undefined || comparePaths(inMemory[next]!, path) < 0)) {
			if (!(await search.searchFile(inMemory[next++]!))) return false;
		}
		return true;
	};
	let current = '';
	let allowed = false;
	/** One rg result, after the in-memory files before it; false stops the search. */
	const take = async (match: RipgrepMatch): Promise<boolean> => {
		if (!(await memoryUpTo(match.path))) return false;
		if (match.path !== current) {
			current = match.path;
			const resolved = await overlay.workspace.resolve(match.path, 'read');
			allowed = resolved.ok && resolved.path === match.path;
		}
		return !allowed || search.add(match.path, match.line, match.text.replace(/\r$/, ''));
	};
	const run = (sorted: boolean, onMatch: (match: RipgrepMatch) => Promise<boolean>) =>
		ripgrepSearch(
			{
				binary: search.binary,
				root: overlay.workspace.root,
				start,
				pattern: search.pattern,
				respectIgnores: search.filter !== undefined,
				sorted,
				signal: search.signal,
				timeLeftMs: Math.max(0, search.deadline - search.now()),
			},
			async (match) => owned.has(match.path) || onMatch(match),
		);

	// Unsorted, rg searches on every core (about twice as fast on two). A pattern with more matches
	// than we keep is searched again in path order, which stops at the 200th.
	const unsorted: RipgrepMatch[] = [];
	let end = await run(false, async (match) => unsorted.push(match) <= maxUnsorted);
	if (end === 'stopped') end = await run(true, take);
	else if (end !== 'unsupported') {
		// At the time limit, what rg found so far is still shown.
		unsorted.sort((a, b) => comparePaths(a.path, b.path) || a.line - b.line);
		for (const match of unsorted) {
			if (!(await take(match))) return 'stopped';
		}
	}
	if (end === 'done' && !(await memoryUpTo())) return 'stopped';
	return end;
}

/** Whether a folder above the workspace root has a `.gitignore` (as when the workspace is a subfolder of a repository). */
function gitignoreAbove(root: string): boolean {
	for (let folder = dirname(root); ; folder = dirname(folder)) {
		if (existsSync(join(folder, '.gitignore'))) return true;
		if (dirname(folder) === folder) return false;
	}
}
