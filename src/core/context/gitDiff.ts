/**
 * `git diff` (working tree) or `git diff --cached` (the index) of the workspace folder, spawned
 * without a shell. Files under the secret-path policy are left out by name before any hunk is
 * read, so a changed `.env` never reaches a prompt.
 */
import { AttachmentError, commitRange, type DiffSource } from './attachment.js';
import { foreignGitDir, hostGitEnv, hostGitTimeoutMs, runGit } from './hostGit.js';

/** A diff larger than this is not read at all (the context caps cut far below it anyway). */
const maxDiffBuffer = 64 * 1024 * 1024;

export interface GitDiff {
	readonly text: string;
	/** Changed files the diff leaves out, with the reason. */
	readonly omitted: readonly { readonly path: string; readonly reason: string }[];
}

/**
 * `refusal` is the path policy for a workspace-relative path (null = may be read). `--relative`
 * keeps the diff to the workspace folder when it is a subfolder of the repository, with paths
 * relative to it, as the policy reads them; `--no-renames` lists a renamed file's old name too.
 */
export async function gitDiff(
	root: string,
	source: DiffSource,
	refusal: (path: string) => string | null,
	signal?: AbortSignal,
	timeoutMs = hostGitTimeoutMs,
): Promise<GitDiff> {
	// The repository may be someone else's: git runs with nothing its config could start (hostGit.ts).
	const hostEnv = await hostGitEnv(root, signal, timeoutMs);
	if (hostEnv === 'timed out') throw timedOut(timeoutMs);
	const git = (args: readonly string[]) => runDiffGit(root, args, hostEnv, signal, timeoutMs);
	const [top, gitDir] = (await git(['rev-parse', '--show-toplevel', '--absolute-git-dir']))
		.trim()
		.split('\n');
	const foreign = await foreignGitDir(root, top!, gitDir!);
	if (foreign) throw new AttachmentError(`cannot attach the git diff: the repository is refused: ${foreign}`);
	const range = source === 'working-tree' || source === 'staged' ? undefined : commitRange(source);
	if (source !== 'working-tree' && source !== 'staged' && range === undefined) {
		throw new AttachmentError(`cannot attach the git diff: '${source}' is not a range of two commits (A..B)`);
	}
	const base = [
		'diff',
		...(source === 'staged' ? ['--cached'] : []),
		'--no-renames',
		'--relative',
		'--no-ext-diff',
		'--no-textconv',
		'-O/dev/null',
		// A submodule's own working tree (and its config) is not looked into; its recorded commit is.
		'--ignore-submodules=dirty',
	];
	// A range comes last among the options: `--end-of-options` keeps it from being read as one.
	const revisions = range ? ['--end-of-options', range] : [];
	const names = (await git([...base, '--name-only', '-z', ...revisions, '--'])).split('\0').filter(Boolean);
	const omitted: { path: string; reason: string }[] = [];
	const allowed: string[] = [];
	for (const path of names) {
		const reason = refusal(path);
		if (reason === null) allowed.push(path);
		else omitted.push({ path, reason });
	}
	if (allowed.length === 0) return { text: '', omitted };
	const pathspecs = allowed.map((path) => `:(literal)${path}`);
	const text = await git([...base, '--no-color', ...revisions, '--', ...pathspecs]);
	return { text, omitted };
}

async function runDiffGit(
	root: string,
	args: readonly string[],
	env: NodeJS.ProcessEnv,
	signal: AbortSignal | undefined,
	timeoutMs: number,
): Promise<string> {
	const {
		error,
		stdout,
		stderr,
		timedOut: killed,
	} = await runGit(root, args, env, signal, maxDiffBuffer, timeoutMs);
	if (!error) return stdout;
	if (killed) throw timedOut(timeoutMs);
	const code = error.code;
	if (code === 'ENOENT') throw new AttachmentError('cannot attach the git diff: git is not installed');
	if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
		throw new AttachmentError(`cannot attach the git diff: it is over ${maxDiffBuffer / 2 ** 20} MiB`);
	}
	if (/not a git repository/i.test(stderr)) {
		throw new AttachmentError(`cannot attach the git diff: '${root}' is not in a git repository`);
	}
	throw new AttachmentError(
		`cannot attach the git diff: git ${args[0]} failed: ${stderr.trim() || error.message}`,
	);
}

/** git blocked (a FIFO or device its config or the workspace names) or the repository is huge. */
function timedOut(timeoutMs: number): AttachmentError {
	return new AttachmentError(
		`cannot attach the git diff: git did not finish within ${timeoutMs / 1000} s (does the repository name a FIFO or device, in its config or as .gitattributes?)`,
	);
}
