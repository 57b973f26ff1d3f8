/**
 * Secrets at any depth never reach a command (docs/threat-model.md): secret files inside dependency folders
 * (which the scratch takes whole: bound read-only in a copy, shown as they are in an overlay),
 * in ignored folders, and hard links to secret files under innocent names. A scripted agent runs
 * `cat`, `grep -r` and `find -exec cat` over them through dist/cli.js, in both kinds of scratch;
 * no secret value may appear in stdout, stderr or any file of the run directory, and the read
 * tools refuse the same paths. Control: a plain file beside each secret, at the same depth, is printed.
 */
import {
	existsSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
} from 'node:fs';
import { symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { cliPath, runCli } from './cliProcess.js';

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const venv = '.venv/lib/python3.12/site-packages/x';
/** Secret files by the policy's names, each with a value that must never be printed. */
const secretFiles: Record<string, string> = {
	'node_modules/pkg/.env': 'TOKEN=DEPSECRET-pkg-env',
	'node_modules/.npmrc': '//registry.npmjs.org/:_authToken=DEPSECRET-npmrc',
	'node_modules/pkg/certs/server.pem': 'TOKEN DEPSECRET-pem',
	'node_modules/pkg/.ssh/id_x': 'TOKEN DEPSECRET-ssh-folder',
	'node_modules/@scope/deep/a/b/c/.env.local': 'TOKEN=DEPSECRET-deep-env',
	[`${venv}/.env`]: 'TOKEN=DEPSECRET-venv-env',
	'build/.env': 'TOKEN=DEPSECRET-ignored-folder',
	'.env': 'TOKEN=DEPSECRET-dotenv-hardlinked',
};
/** Plain files at the same depths: printed (the commands did run and could read). */
const controls: Record<string, string> = {
	'node_modules/pkg/index.js': 'TOKEN CONTROL-pkg-index',
	'node_modules/pkg/certs/readme.txt': 'TOKEN CONTROL-certs-readme',
	'node_modules/@scope/deep/a/b/c/index.js': 'TOKEN CONTROL-deep-index',
	[`${venv}/ok.txt`]: 'TOKEN CONTROL-venv-ok',
	'README.md': 'TOKEN CONTROL-readme',
};

/** A workspace outside the OS temp folder, with the secrets, their hard links and a link to one. */
function workspace(): string {
	const root = mkdtempSync(join('/var/tmp', 'massgen-depsecrets-'));
	made.push(root);
	for (const [path, content] of Object.entries({ ...secretFiles, ...controls, '.gitignore': 'build/\n' })) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), `${content}\n`);
	}
	// Hard links: the same file under names no policy knows.
	linkSync(join(root, '.env'), join(root, 'notes.txt'));
	linkSync(join(root, 'node_modules/.npmrc'), join(root, 'node_modules/pkg/linked.txt'));
	// A link to a secret inside the dependency folder.
	symlinkSync('../.npmrc', join(root, 'node_modules/pkg/cfg'));
	return root;
}

const commands = [
	'cat node_modules/pkg/.env',
	'cat node_modules/.npmrc',
	'grep -r TOKEN .',
	"find . -name '*.pem' -exec cat {} +",
	`cat ${venv}/.env`,
	'cat node_modules/pkg/.ssh/id_x; ls -a node_modules/pkg/.ssh',
	'cat notes.txt node_modules/pkg/linked.txt node_modules/pkg/cfg',
	'cat build/.env',
	`cat node_modules/pkg/index.js node_modules/pkg/certs/readme.txt ${venv}/ok.txt`,
];
const reads = ['node_modules/pkg/.env', 'notes.txt', 'node_modules/pkg/linked.txt', `${venv}/.env`];

function team(): string {
	const dir = mkdtempSync(join(tmpdir(), 'massgen-depsecrets-cfg-'));
	made.push(dir);
	const config = join(dir, 'team.yaml');
	const toolCalls = [
		...commands.map((command) => ({ name: 'run_command', arguments: { command } })),
		...reads.map((path) => ({ name: 'read_file', arguments: { path } })),
	];
	writeFileSync(
		config,
		stringify({
			agents: [
				{
					id: 'reader',
					backend: {
						type: 'scripted',
						enable_command_execution: true,
						script: {
							coordination: [{ tool_calls: toolCalls, answer: 'Read.' }, { vote: 'first' }],
							presentation: { text: 'Done.' },
						},
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
			timeout_settings: { orchestrator_timeout_seconds: 60 },
		}),
	);
	return config;
}

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

const detection = process.platform === 'linux' ? await detectSandbox() : { sandbox: null };
const overlay = detection.sandbox?.overlay !== undefined && ripgrepOnPath(process.env) !== null;

describe.runIf(detection.sandbox?.mode === 'bubblewrap' && existsSync(cliPath))(
	'secrets at any depth never reach a command (dist/cli.js)',
	() => {
		const cases = overlay ? (['overlay', 'copy'] as const) : (['copy'] as const);
		it.each(cases)(
			'%s scratch: cat, grep -r and find -exec print no secret; the controls are printed',
			async (scratch) => {
				const root = workspace();
				const run = await runCli(
					['run', '--yes', ...(scratch === 'overlay' ? ['--json'] : []), '--config', team(), 'Read'],
					{
						cwd: root,
						env: {
							XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'massgen-depsecrets-xdg-')),
							...(scratch === 'copy' ? { MASSGEN_SCRATCH: 'copy' } : {}),
						},
						deadlineMs: 30_000,
					},
				);
				expect(run.code, run.stderr).toBe(0);
				const runs = join(root, '.massgen', 'runs');
				const dir = join(runs, readdirSync(runs)[0]!);
				const channels: [string, string][] = [
					['stdout', run.stdout],
					['stderr', run.stderr],
					...filesUnder(dir).map((file): [string, string] => [file, readFileSync(file, 'utf8')]),
				];
				for (const [where, text] of channels) {
					expect(text.includes('DEPSECRET'), `${where} holds a secret value`).toBe(false);
				}
				const events = readFileSync(join(dir, 'events.jsonl'), 'utf8')
					.trim()
					.split('\n')
					.map((line) => JSON.parse(line) as { type: string; name?: string; text?: string });
				expect(events.find((event) => event.type === 'command-sandbox')).toMatchObject({ scratch });
				const results = events.filter((event) => event.type === 'tool-result');
				const ran = results
					.filter((event) => event.name === 'run_command')
					.map((event) => String(event.text));
				expect(ran).toHaveLength(commands.length);
				// Controls: the commands ran and read plain files beside the secrets.
				for (const value of Object.values(controls)) {
					expect(ran[2], 'grep -r').toContain(value.split(' ')[1]);
				}
				expect(ran[8]).toContain('CONTROL-venv-ok');
				// The read tools refuse the same paths, the hard links by identity.
				const refused = results
					.filter((event) => event.name === 'read_file')
					.map((event) => String(event.text));
				expect(refused).toHaveLength(reads.length);
				for (const text of refused) {
					expect(text).toMatch(/refused: .* (is a secret path|is a hard link to a secret file)/);
				}
				// The real workspace still has every secret (nothing was removed to hide it).
				expect(readFileSync(join(root, 'node_modules/pkg/.env'), 'utf8')).toContain('DEPSECRET-pkg-env');
			},
			60_000,
		);
	},
);
