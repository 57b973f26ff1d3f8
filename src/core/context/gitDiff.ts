/**
 * `git diff` (working tree) or `git diff --cached` (the index) of the workspace folder, spawned
 * without a shell. Files under the secret-path policy are left out by name before any hunk is
 * read, so a changed `.env` never reaches a prompt.
 */
import { execFile } from 'node:child_process';
import { AttachmentError, type DiffSource } from './attachment.js';

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
): Promise<GitDiff> {
	const base = ['diff', ...(source === 'staged' ? ['--cached'] : []), '--no-renames', '--relative'];
	const names = (await git(root, [...base, '--name-only', '-z'], signal)).split('\0').filter(Boolean);
	const omitted: { path: string; reason: string }[] = [];
	const allowed: string[] = [];
	for (const path of names) {
		const reason = refusal(path);
		if (reason === null) allowed.push(path);
		else omitted.push({ path, reason });
	}
	if (allowed.length === 0) return { text: '', omitted };
	const pathspecs = allowed.map((path) => `:(literal)${path}`);
	const text = await git(
		root,
		[...base, '--no-color', '--no-ext-diff', '--no-textconv', '--', ...pathspecs],
		signal,
	);
	return { text, omitted };
}

function git(root: string, args: readonly string[], signal: AbortSignal | undefined): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(
			'git',
			args,
			// No index refresh lock: the user's own git commands must not collide with ours.
			{ cwd: root, maxBuffer: maxDiffBuffer, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' }, signal },
			(error, stdout, stderr) => {
				if (!error) return resolve(stdout);
				const code = (error as NodeJS.ErrnoException).code;
				if (code === 'ENOENT') {
					return reject(new AttachmentError('cannot attach the git diff: git is not installed'));
				}
				if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
					return reject(
						new AttachmentError(`cannot attach the git diff: it is over ${maxDiffBuffer / 2 ** 20} MiB`),
					);
				}
				if (/not a git repository/i.test(stderr)) {
					return reject(
						new AttachmentError(`cannot attach the git diff: '${root}' is not in a git repository`),
					);
				}
				reject(
					new AttachmentError(
						`cannot attach the git diff: git ${args[0]} failed: ${stderr.trim() || error.message}`,
					),
				);
			},
		);
	});
}
