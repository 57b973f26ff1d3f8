import type { Overlay } from '../workspace/types.js';
import type { GitignoreFilter } from './gitignoreFilter.js';
import type { TimeSlice } from './timeSlice.js';

/** Deeper trees are generated or hostile (git itself struggles past a few hundred levels). */
export const maxWalkDepth = 64;
/** Files and folders one walk may look at; a larger tree is narrowed with a path instead. */
export const maxWalkEntries = 50_000;

export interface WalkOptions {
	/** Skips what git would ignore; omit to walk everything (a folder the agent named explicitly). */
	readonly filter?: GitignoreFilter;
	readonly slice: TimeSlice;
	readonly maxDepth?: number;
	readonly maxEntries?: number;
	/** `now()` past which the walk stops (e.g. a huge .gitignore makes every entry slow). */
	readonly deadline?: number;
	/** The deadline's clock; default `performance.now`. */
	readonly now?: () => number;
}

/** What a walk left out, in words for the model; empty when it saw everything. */
export interface WalkReport {
	readonly cuts: string[];
}

/**
 * Visits the files under `start` (an overlay folder) in sorted depth-first order until `visit`
 * returns false. Never descends into linked folders (as git and ripgrep do not): a link to `.`
 * would loop, and a link inside the workspace only repeats a folder walked at its real path.
 * Folders deeper than `maxDepth` are skipped and at most `maxEntries` entries are looked at, so a
 * hostile tree ends the walk in bounded time; `slice` keeps the event loop and cancellation alive.
 */
export async function walkFiles(
	overlay: Overlay,
	start: string,
	options: WalkOptions,
	visit: (path: string) => Promise<boolean>,
): Promise<WalkReport> {
	const maxDepth = options.maxDepth ?? maxWalkDepth;
	const maxEntries = options.maxEntries ?? maxWalkEntries;
	const now = options.now ?? (() => performance.now());
	let entries = 0;
	let stopped = false;
	let capped = false;
	let late = false;
	let tooDeep: string | undefined;
	let links = 0;

	// Recursion is bounded by maxDepth; `stopped` unwinds it once `visit` or the entry cap says so.
	const walk = async (dir: string, depth: number): Promise<void> => {
		// A missing start is the caller's error; an unreadable folder below it is skipped, as ripgrep does.
		const listing = depth === 0 ? overlay.list(dir) : overlay.list(dir).catch(() => []);
		for (const entry of await listing) {
			await options.slice.check();
			if (stopped) return;
			if (options.deadline !== undefined && now() > options.deadline) {
				late = stopped = true;
				return;
			}
			if (entries === maxEntries) {
				capped = stopped = true;
				return;
			}
			entries++;
			const path = dir === '.' ? entry.name : `${dir}/${entry.name}`;
			const isDirectory = entry.kind === 'directory';
			if (options.filter && (await options.filter.ignores(path, isDirectory))) continue;
			if (!isDirectory) stopped = !(await visit(path));
			else if (entry.link) links++;
			else if (depth === maxDepth) tooDeep ??= path;
			else await walk(path, depth + 1);
		}
	};
	await walk(start, 0);
	return {
		cuts: [
			...(capped ? [`stopped after ${maxEntries} files and folders (the limit)`] : []),
			...(late ? ['stopped at the time limit'] : []),
			...(tooDeep ? [`skipped folders more than ${maxDepth} levels deep, e.g. '${tooDeep}'`] : []),
			...(links > 0 ? [`did not follow ${links} linked folder(s): name one in 'path' to search it`] : []),
		],
	};
}
