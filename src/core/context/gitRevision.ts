/**
 * What a diff review needs of git besides the diff itself (`gitDiff.ts`): a file's text on one side
 * of the diff (the index or a commit), the merge base of two revisions, and the repository's
 * default branch. Every call runs git as `hostGit.ts` does (nothing the repository's config or
 * attributes name is run; a time limit) on a repository whose git directory is its own.
 */
import { AttachmentError, type CommitRange, isRevision } from './attachment.js';
import { foreignGitDir, hostGitEnv, runGit } from './hostGit.js';

/** A file larger than this is not read (its review threads go on the workspace file). */
const maxBlobBytes = 16 * 1024 * 1024;

export interface GitRepo {
	/**
	 * The text of `path` (relative to the workspace folder, `/`-separated) in the index (`':'`) or in
	 * revision `rev`; undefined when it is not there (deleted, never added) or too large.
	 */
	fileAt(rev: ':' | string, path: string): Promise<string | undefined>;
	/** The best common ancestor's hash, undefined when there is none. */
	mergeBase(a: string, b: string): Promise<string | undefined>;
	/**
	 * The branch a range review starts from: what `origin/HEAD` points at, else the first of `main`,
	 * `master`, `trunk`, `develop` that exists; undefined when none does.
	 */
	defaultBranch(): Promise<string | undefined>;
}

/** Opens the repository holding `root` for these reads; an `AttachmentError` says why it cannot. */
export async function openGitRepo(root: string, signal?: AbortSignal): Promise<GitRepo> {
	const env = await hostGitEnv(root, signal);
	if (env === 'timed out') throw new AttachmentError('git did not answer in time');
	const git = (args: readonly string[], maxBuffer?: number) => runGit(root, args, env, signal, maxBuffer);
	const located = await git(['rev-parse', '--show-toplevel', '--absolute-git-dir']);
	if (located.error) {
		throw new AttachmentError(
			/not a git repository/i.test(located.stderr)
				? `'${root}' is not in a git repository`
				: `git failed: ${located.stderr.trim() || located.error.message}`,
		);
	}
	const [top, gitDir] = located.stdout.trim().split('\n');
	const foreign = await foreignGitDir(root, top!, gitDir!);
	if (foreign) throw new AttachmentError(`the repository is refused: ${foreign}`);
	const verified = async (name: string) =>
		!(await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`])).error;
	return {
		async fileAt(rev, path) {
			if ((rev !== ':' && !isRevision(rev)) || path.includes('\0') || path === '') return undefined;
			// `./` reads the path relative to the workspace folder, as `gitDiff --relative` names it;
			// `cat-file blob` runs no filter or textconv.
			const object = rev === ':' ? `:./${path}` : `${rev}:./${path}`;
			const read = await git(['cat-file', 'blob', object], maxBlobBytes);
			return read.error ? undefined : read.stdout;
		},
		async mergeBase(a, b) {
			if (!isRevision(a) || !isRevision(b)) return undefined;
			const found = await git(['merge-base', '--end-of-options', a, b]);
			const hash = found.stdout.trim();
			return found.error || !/^[0-9a-f]{7,64}$/.test(hash) ? undefined : hash;
		},
		async defaultBranch() {
			const head = await git(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']);
			const remote = head.stdout.trim();
			if (!head.error && isRevision(remote) && (await verified(remote))) return remote;
			for (const name of ['main', 'master', 'trunk', 'develop']) {
				if (await verified(name)) return name;
			}
			return undefined;
		},
	};
}

/** The two sides of a range: `A..B` → `['A', 'B']`. */
export function rangeSides(range: CommitRange): readonly [string, string] {
	const [from, to] = range.split('..');
	return [from!, to!];
}
