/**
 * `git` run on the user's repository, which may have been written by someone else: its
 * `.git/config` (and what it includes) and `.gitattributes` can name programs that git runs on a
 * mere `git diff` or `git status`. Every one of those is turned off here, through the environment
 * (`GIT_CONFIG_COUNT` entries outrank the repository's config and reach any git it starts):
 * - `core.fsmonitor` (a program run on every index refresh), `core.hooksPath` (hooks),
 * - `filter.<driver>.clean/smudge/process` for every driver the config defines (a working-tree
 *   comparison runs the clean filter; an empty command is a pass-through), `required` off,
 * - transports (`protocol.allow=never`: a partial clone's lazy fetch would run `core.sshCommand`,
 *   `ext::` URLs or credential helpers), credential helpers, the pager, terminal prompts;
 * - the callers pass `--no-ext-diff --no-textconv` (`diff.external`, `diff.<driver>.command` and
 *   `textconv`) and `-O/dev/null` (`diff.orderFile` could name a FIFO).
 * The repository's location is checked too: its git directory must be its own (`.git` inside the
 * top level, a linked worktree that links back, or a submodule's under a parent's `.git/modules`),
 * so a `.git` file pointing into another of the user's repositories cannot show that one's files.
 * `safe.directory` is left to git: it refuses a repository another user owns, as it should.
 * Every git run has a time limit: a FIFO the repository names (an `include.path`, a
 * `core.attributesFile`, a `.gitattributes` that is a FIFO) would otherwise block git for ever.
 */
import { execFile, type ExecFileException } from 'node:child_process';
import { hostPath } from '../util/hostPath.js';
import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Settings that run nothing, whatever the repository's config says. */
const fixed: readonly (readonly [string, string])[] = [
	['core.fsmonitor', 'false'],
	['core.hooksPath', '/dev/null'],
	['core.pager', 'cat'],
	['protocol.allow', 'never'],
	['credential.helper', ''],
	['core.askPass', ''],
];

/** How long one git run may take before it is killed (a diff of a large repository fits well within). */
export const hostGitTimeoutMs = 60_000;

export interface GitOutput {
	readonly error: ExecFileException | null;
	/** Killed at its time limit. */
	readonly timedOut: boolean;
	readonly stdout: string;
	readonly stderr: string;
}

/**
 * The environment for git on `root`: the fixed settings and every defined filter turned off;
 * `'timed out'` when git could not even list the filters in time (then nothing may run).
 */
export async function hostGitEnv(
	root: string,
	signal?: AbortSignal,
	timeoutMs = hostGitTimeoutMs,
): Promise<NodeJS.ProcessEnv | 'timed out'> {
	const base = gitEnv(fixed);
	const listed = await runGit(
		root,
		['config', '-z', '--get-regexp', '^filter\\.'],
		base,
		signal,
		undefined,
		timeoutMs,
	);
	if (listed.timedOut) return 'timed out';
	const drivers = new Set<string>();
	for (const entry of listed.stdout.split('\0')) {
		const key = entry.split('\n', 1)[0]!;
		const name = /^filter\.(.+)\.[^.]+$/s.exec(key)?.[1];
		if (name !== undefined) drivers.add(name);
	}
	const filters = [...drivers].flatMap((name) =>
		(['clean', 'smudge', 'process', 'required'] as const).map(
			(part) => [`filter.${name}.${part}`, part === 'required' ? 'false' : ''] as const,
		),
	);
	return gitEnv([...fixed, ...filters]);
}

function gitEnv(settings: readonly (readonly [string, string])[]): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		// No index refresh lock: the user's own git commands must not collide with ours.
		GIT_OPTIONAL_LOCKS: '0',
		GIT_PAGER: 'cat',
		PAGER: 'cat',
		GIT_TERMINAL_PROMPT: '0',
		GIT_NO_LAZY_FETCH: '1',
		GIT_CONFIG_COUNT: String(settings.length),
	};
	for (const name of [
		'GIT_EXTERNAL_DIFF',
		'GIT_DIR',
		'GIT_WORK_TREE',
		'GIT_CONFIG_PARAMETERS',
		'GIT_ASKPASS',
	]) {
		delete env[name];
	}
	settings.forEach(([key, value], i) => {
		env[`GIT_CONFIG_KEY_${i}`] = key;
		env[`GIT_CONFIG_VALUE_${i}`] = value;
	});
	return env;
}

export function runGit(
	root: string,
	args: readonly string[],
	env: NodeJS.ProcessEnv,
	signal?: AbortSignal,
	maxBuffer = 1024 * 1024,
	timeoutMs = hostGitTimeoutMs,
): Promise<GitOutput> {
	return new Promise((done) => {
		// `git` itself is looked up on a PATH the workspace cannot add to (`hostPath`).
		const hostEnv = { ...env, PATH: hostPath(env['PATH'], root) };
		execFile(
			'git',
			['--no-pager', ...args],
			{ cwd: root, env: hostEnv, signal, maxBuffer, timeout: timeoutMs, killSignal: 'SIGKILL' },
			(error, stdout, stderr) =>
				done({ error, stdout, stderr, timedOut: error?.killed === true && !signal?.aborted }),
		);
	});
}

/**
 * Why the repository holding `root` is not one to run git on (null: it is). `top` and `gitDir` are
 * `git rev-parse --show-toplevel --absolute-git-dir`.
 */
export async function foreignGitDir(root: string, top: string, gitDir: string): Promise<string | null> {
	if (!within(top, await realpath(root).catch(() => resolve(root)))) {
		return `its working tree ${top} does not hold the workspace folder (core.worktree?)`;
	}
	if (gitDir === join(top, '.git') || within(top, gitDir)) return null;
	// A linked worktree: git wrote `<common>/worktrees/<name>/gitdir` naming this `.git` file.
	const back = await readFile(join(gitDir, 'gitdir'), 'utf8').catch(() => undefined);
	if (back !== undefined && resolve(gitDir, back.trim()) === join(top, '.git')) return null;
	// A submodule: its git directory is under a parent repository's `.git/modules`.
	const modules = gitDir.lastIndexOf(`${sep}.git${sep}modules${sep}`);
	if (modules >= 0 && within(gitDir.slice(0, modules) || sep, top)) return null;
	return `its git directory ${gitDir} is outside it (a .git file pointing elsewhere)`;
}

/** `path` is `dir` or inside it. */
function within(dir: string, path: string): boolean {
	const rel = relative(dir, path);
	return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
