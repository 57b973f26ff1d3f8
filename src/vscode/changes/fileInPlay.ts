// No `vscode` import: the choice is unit-tested (test/unit/vscode/fileInPlay.test.ts).

/** What says which file a run was about. Paths are workspace-relative with `/`. */
export interface PlayHints {
	/** The file of the user's active editor. */
	readonly activePath?: string;
	/** The file a selection review reviewed. */
	readonly reviewedPath?: string;
	/** Files attached to the question. */
	readonly attached: readonly string[];
	readonly question: string;
}

const docExtensions = /\.(?:md|markdown|txt|rst|adoc)$/i;

/**
 * The changed file the first diff opens for: the one the user is looking at, else the reviewed or
 * an attached one, else one the question names (by path, then by file name), else the first that
 * is not documentation (a run about code should not open on README.md), else the first.
 */
export function fileInPlay(paths: readonly string[], hints: PlayHints): string | undefined {
	const has = (path: string | undefined) => (path !== undefined && paths.includes(path) ? path : undefined);
	const named = (pattern: (path: string) => RegExp) =>
		paths.find((path) => pattern(path).test(hints.question));
	return (
		has(hints.activePath) ??
		has(hints.reviewedPath) ??
		hints.attached.map(has).find((path) => path !== undefined) ??
		named((path) => new RegExp(`(?:^|[\\s\`'"(])${escape(path)}(?![\\w/])`)) ??
		named((path) => new RegExp(`(?:^|[\\s\`'"(/])${escape(basename(path))}(?![\\w/])`)) ??
		paths.find((path) => !docExtensions.test(path)) ??
		paths[0]
	);
}

function basename(path: string): string {
	return path.slice(path.lastIndexOf('/') + 1);
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
