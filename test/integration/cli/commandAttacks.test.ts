/**
 * Issue 9 item 2, end to end: the commands that broke out of `run_command` before the OS sandbox,
 * through the built CLI with a scripted agent, with `--deny-all` and with `--yes`, in both kinds of
 * scratch (the overlay where this machine can mount one, and the copy: `MASSGEN_SCRATCH=copy`). Each run
 * hashes the real workspace (a git repository with `.git` and `node_modules`) and an outside
 * folder before and after, and checks that no secret of the CLI's environment or of `.env`
 * reaches stdout, stderr or the run directory.
 */
import { execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { cliPath, runCli } from './cliProcess.js';
import { hashFiles } from '../../support/tempTree.js';
import { runDir } from '../../support/runDir.js';

const secrets = {
	OPENAI_API_KEY: 'sk-test-attack-0001',
	ANTHROPIC_API_KEY: 'sk-ant-test-attack-0002',
	DATABASE_URL: 'postgres://u:pw-attack-0003@h/db',
	GH_PAT: 'ghp_attack0004',
};
const dotenvSecret = 'dotenv-attack-0005';

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function folder(parent: string, prefix: string): string {
	const dir = mkdtempSync(join(parent, prefix));
	made.push(dir);
	return dir;
}

/** A git repository outside the OS temp folder, with a dependency folder and a `.env`. */
function workspace(): string {
	const root = folder('/var/tmp', 'massgen-attack-ws-');
	const files: Record<string, string> = {
		'README.md': 'b\na\n',
		'src/app.ts': 'export const app = 1;\n',
		'.env': `SECRET=${dotenvSecret}\n`,
		'node_modules/x/index.js': 'module.exports = 42;\n',
		'.gitignore': 'node_modules/\n',
	};
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), content);
	}
	const git = (...args: string[]) =>
		execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
			cwd: root,
			stdio: 'ignore',
		});
	git('init', '-q');
	git('add', '-A');
	git('commit', '-q', '-m', 'init');
	return root;
}

/** Every file but the CLI's own run log. */
const outsideRuns = (rel: string) => rel.startsWith('.massgen/runs');

/**
 * The command attacks of docs/threat-model.md, each a `run_command` call (`outside`: a folder outside
 * the workspace).
 */
function attacks(root: string, outside: string): string[] {
	return [
		'sort -onode_modules/../src/app.ts README.md',
		"echo x | sed 's/.*/rm -f node_modules\\/..\\/README.md/e'",
		`awk 'BEGIN{print "x" > "node_modules/../a.txt"}'`,
		`awk 'BEGIN{print "touch node_modules/../pwned-awk; touch ${outside}/pwned-awk" | "sh"}'`,
		`git grep --no-index --open-files-in-pager='touch ${outside}/pwned-git-grep; true' app`,
		`git diff --no-index --output=${outside}/diff.txt README.md src/app.ts`,
		`sort -o${outside}/sorted.txt README.md`,
		`awk 'BEGIN{print "[core]\\n\\tfsmonitor = touch ${outside}/pwned-fsmonitor" >> "node_modules/../.git/config"}'`,
		`rm -rf node_modules/x ${root}/src`,
		"echo $PPID | sed 's/.*/cat \\/proc\\/&\\/environ/e'",
		'env',
		'cat node_modules/../.env',
		`cat ${root}/.env`,
		// As root (CI), a sandbox that kept its capabilities could undo the hiding and remount / writable.
		`umount ${root}; mount -o remount,bind,rw /; echo x > ${root}/pwned-remount; cat ${root}/.env`,
	];
}

function team(commands: readonly string[]): string {
	const config = join(folder(tmpdir(), 'massgen-attack-cfg-'), 'team.yaml');
	const toolCalls = commands.map((command) => ({ name: 'run_command', arguments: { command } }));
	writeFileSync(
		config,
		stringify({
			agents: [
				{
					id: 'attacker',
					backend: {
						type: 'scripted',
						enable_command_execution: true,
						script: { coordination: [{ tool_calls: toolCalls, answer: 'I tried.' }, { vote: 'first' }] },
					},
				},
				{
					id: 'checker',
					backend: {
						type: 'scripted',
						script: { latency_ms: 50, coordination: [{ answer: 'Nothing to do.' }, { vote: 'first' }] },
					},
				},
			],
			timeout_settings: { orchestrator_timeout_seconds: 120 },
		}),
	);
	return config;
}

const lines = (file: string) =>
	readFileSync(file, 'utf8')
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
/** The run's `command-sandbox` event: the mode the panel shows. */
const sandboxEvent = (dir: string) =>
	lines(join(dir, 'events.jsonl')).find((event) => event.type === 'command-sandbox');
const detection = process.platform === 'linux' ? await detectSandbox() : { sandbox: null };

describe.runIf(detection.sandbox !== null && existsSync(cliPath))(
	'massgen run: run_command attacks in the bubblewrap sandbox',
	() => {
		// The CLI's overlay scratch lists the workspace with the rg on PATH.
		const overlay = detection.sandbox?.overlay !== undefined && ripgrepOnPath(process.env) !== null;
		const cases = (['--deny-all', '--yes'] as const).flatMap((approvals) =>
			(overlay ? (['overlay', 'copy'] as const) : (['copy'] as const)).map((scratch) => ({
				approvals,
				scratch,
			})),
		);
		for (const { approvals, scratch } of cases) {
			it(`${approvals}, ${scratch}: nothing outside the scratch changes and no secret is printed`, async () => {
				const root = workspace();
				const outside = folder('/var/tmp', 'massgen-attack-outside-');
				writeFileSync(join(outside, 'keep.txt'), 'keep\n');
				const commands = attacks(root, outside);
				const before = {
					root: hashFiles(root, { skip: outsideRuns }),
					outside: hashFiles(outside, { skip: outsideRuns }),
				};
				const env = {
					...secrets,
					XDG_CONFIG_HOME: folder(tmpdir(), 'massgen-attack-xdg-'),
					...(scratch === 'copy' ? { MASSGEN_SCRATCH: 'copy' } : {}),
				};
				const run = await runCli(['run', approvals, '--config', team(commands), 'Try everything'], {
					cwd: root,
					env,
				});
				expect(run.code, run.stderr).toBe(0);

				expect(hashFiles(root, { skip: outsideRuns })).toEqual(before.root);
				expect(hashFiles(outside, { skip: outsideRuns })).toEqual(before.outside);
				// The fsmonitor attack would run on the user's next `git status`.
				execFileSync('git', ['status', '--porcelain'], { cwd: root });
				expect(readdirSync(outside)).toEqual(['keep.txt']);

				const dir = runDir(root);
				const everything = [
					run.stdout,
					run.stderr,
					...readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')),
				].join('\n');
				for (const value of [...Object.values(secrets), dotenvSecret]) {
					expect(everything).not.toContain(value);
				}

				const results = lines(join(dir, 'events.jsonl')).filter(
					(event) => event.type === 'tool-result' && event.name === 'run_command',
				);
				expect(results).toHaveLength(commands.length);
				const texts = results.map((event) => String(event.text));
				const ran = texts.filter((text) => !text.startsWith('run_command: denied'));
				if (approvals === '--yes') {
					// Every attack ran (none was refused by policy): the sandbox alone held.
					expect(ran).toHaveLength(commands.length);
					// The outside folder (in /var/tmp, where users keep data) is hidden: writes find no folder.
					expect(texts[3]).toMatch(/touch: cannot touch '.*\/pwned-awk': No such file or directory/);
					expect(texts[5]).toMatch(/could not open '.*\/diff\.txt' for writing: No such file or directory/);
					// A copy binds node_modules read-only; an overlay lets the command delete its view of it (the real one is hashed above).
					if (scratch === 'copy') {
						expect(texts[8]).toMatch(/rm: cannot remove 'node_modules\/x\/index\.js': Read-only file system/);
					} else {
						expect(texts[8]).toMatch(/^exit code 0/);
					}
					// `/proc/$PPID` is the sandbox's own process, with the allow-listed environment.
					expect(texts[9]).toMatch(/HOME=\/tmp\/massgen-cmd-[^\0]*[./]home\0/);
					expect(texts[12]).toMatch(/cat: .*\/\.env: No such file or directory/);
				} else {
					expect(ran.length).toBeGreaterThan(0);
				}
				// What ran, ran in the sandbox: the environment listing (if it ran) holds only allow-listed names.
				const listing = texts.find((text) => /\nPATH=/.test(text));
				if (listing !== undefined) expect(listing).not.toMatch(/API_KEY|DATABASE_URL|GH_PAT|XDG_CONFIG_HOME/);
				expect(run.stderr).toContain(
					'run_command: commands run in a bubblewrap sandbox (only the scratch copy is writable; no network)',
				);
				expect(sandboxEvent(dir)).toMatchObject({ mode: 'bubblewrap', network: false, scratch });
			}, 120_000);
		}
	},
);

describe.runIf(process.platform === 'linux' && existsSync(cliPath))(
	'massgen run: without a usable sandbox',
	() => {
		const env = () => ({
			...secrets,
			MASSGEN_BWRAP_PATH: '/nonexistent/bwrap',
			XDG_CONFIG_HOME: folder(tmpdir(), 'massgen-attack-xdg-'),
		});

		it('run_command is off, with the reason and the setting that would turn it on', async () => {
			const root = workspace();
			const before = hashFiles(root, { skip: outsideRuns });
			const run = await runCli(['run', '--yes', '--config', team(['echo ran > made.txt; echo ran']), 'Try'], {
				cwd: root,
				env: env(),
			});
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toContain(
				'massgen: run_command is off: bubblewrap is not installed (/nonexistent/bwrap not found; Debian/Ubuntu: apt-get install bubblewrap). To run commands without a sandbox',
			);
			expect(run.stderr).toContain('--unsandboxed-commands');
			const result = lines(join(runDir(root), 'events.jsonl')).find(
				(event) => event.type === 'tool-result' && event.name === 'run_command',
			);
			expect(result).toMatchObject({ isError: true });
			expect(String(result?.text)).not.toMatch(/^exit code/);
			expect(sandboxEvent(runDir(root))).toMatchObject({
				mode: 'off',
				notice: expect.stringContaining('run_command is off'),
			});
			expect(hashFiles(root, { skip: outsideRuns })).toEqual(before);
		});

		it('--unsandboxed-commands runs commands without one and says so; the environment is still allow-listed', async () => {
			const root = workspace();
			const run = await runCli(
				['run', '--yes', '--unsandboxed-commands', '--config', team(['echo ran-unsandboxed; env']), 'Try'],
				{ cwd: root, env: env() },
			);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toContain(
				'massgen: run_command: commands run WITHOUT a sandbox (bubblewrap is not installed (/nonexistent/bwrap not found; Debian/Ubuntu: apt-get install bubblewrap)), as opted in',
			);
			const dir = runDir(root);
			expect(sandboxEvent(dir)).toMatchObject({ mode: 'none' });
			const result = lines(join(dir, 'events.jsonl')).find(
				(event) => event.type === 'tool-result' && event.name === 'run_command',
			);
			expect(result).toMatchObject({
				isError: false,
				text: expect.stringMatching(/^exit code 0 .*\nran-unsandboxed\n/),
			});
			const everything = [
				run.stdout,
				run.stderr,
				...readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')),
			].join('\n');
			for (const value of Object.values(secrets)) expect(everything).not.toContain(value);
		});
	},
);
