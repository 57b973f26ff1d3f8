/**
 * A repository cannot switch the command sandbox off for its own commands: the CLI end to end
 * (the built `dist/cli.js`, a scripted agent calling `run_command`) with the team config in the
 * workspace (`.massgen/config.yaml`, the CLI's default pick) saying `command_sandbox:
 * allow-unsandboxed` and `command_network: true`. Without a usable sandbox (`MASSGEN_BWRAP_PATH`
 * names a missing bwrap) run_command stays off and the run says the keys were ignored; the same
 * file given from outside the workspace, or `--unsandboxed-commands`, is the user's opt-in. The
 * folder is trusted (`--trust-workspace`, for the config's allow rule): even trust does not let a
 * workspace config weaken the sandbox.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { cliPath, runCli } from './cliProcess.js';

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function folder(prefix: string): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	made.push(dir);
	return dir;
}

/** A workspace whose own `.massgen/config.yaml` opts its commands out of the sandbox and into the network. */
function workspace(command: string): { root: string; config: string } {
	const root = folder('massgen-optout-ws-');
	writeFileSync(join(root, 'README.md'), '# repo\n');
	mkdirSync(join(root, '.massgen'));
	const config = join(root, '.massgen', 'config.yaml');
	writeFileSync(
		config,
		stringify({
			agents: [
				{
					id: 'runner',
					backend: {
						type: 'scripted',
						enable_command_execution: true,
						script: {
							coordination: [
								{ tool_calls: [{ name: 'run_command', arguments: { command } }], answer: 'Ran it.' },
								{ vote: 'first' },
							],
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
			permissions: { allow: ['command(*)'], command_sandbox: 'allow-unsandboxed', command_network: true },
		}),
	);
	return { root, config };
}

/** The same file, outside the workspace: the user's own config. */
function outsideCopy(config: string): string {
	const copy = join(folder('massgen-optout-cfg-'), 'team.yaml');
	copyFileSync(config, copy);
	return copy;
}

const events = (root: string) => {
	const runs = join(root, '.massgen', 'runs');
	return readFileSync(join(runs, readdirSync(runs)[0]!, 'events.jsonl'), 'utf8')
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
};
const sandboxEvent = (root: string) => events(root).find((event) => event.type === 'command-sandbox');
const commandResult = (root: string) =>
	events(root).find((event) => event.type === 'tool-result' && event.name === 'run_command');

const ignoredSandbox =
	'massgen: permissions.command_sandbox: allow-unsandboxed is ignored: the team config is inside the workspace';
const ignoredNetwork =
	'massgen: permissions.command_network: true is ignored: the team config is inside the workspace';

describe.runIf(process.platform === 'linux' && existsSync(cliPath))(
	'massgen run: a workspace config cannot opt out of the command sandbox (no usable sandbox)',
	() => {
		const env = () => ({
			MASSGEN_BWRAP_PATH: '/nonexistent/bwrap',
			XDG_CONFIG_HOME: folder('massgen-optout-xdg-'),
		});

		it('from <workspace>/.massgen/config.yaml: run_command stays off and the ignored keys are named', async () => {
			const { root } = workspace('echo ran-unsandboxed');
			const run = await runCli(['run', '--yes', '--trust-workspace', 'Run it'], { cwd: root, env: env() });
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toContain(ignoredSandbox);
			expect(run.stderr).toContain('--unsandboxed-commands (CLI), massgen.commands.allowUnsandboxed');
			expect(run.stderr).toContain(ignoredNetwork);
			expect(run.stderr).toContain('massgen: run_command is off: bubblewrap is not installed');
			expect(sandboxEvent(root)).toMatchObject({ mode: 'off', network: false });
			const result = commandResult(root);
			expect(result).toMatchObject({ isError: true });
			expect(String(result?.text)).not.toContain('ran-unsandboxed');
		});

		it('the workspace file named by an outside path (/proc/self/root/…) is still ignored', async () => {
			const { root, config } = workspace('echo ran-unsandboxed');
			const run = await runCli(
				['run', '--yes', '--trust-workspace', '--config', `/proc/self/root${config}`, 'Run it'],
				{
					cwd: root,
					env: env(),
				},
			);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toContain(ignoredSandbox);
			expect(sandboxEvent(root)).toMatchObject({ mode: 'off' });
		});

		it('the same file from outside the workspace turns it on', async () => {
			const { root, config } = workspace('echo ran-unsandboxed');
			const run = await runCli(['run', '--yes', '--config', outsideCopy(config), 'Run it'], {
				cwd: root,
				env: env(),
			});
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).not.toContain('is ignored: the team config is inside the workspace');
			expect(run.stderr).toContain('massgen: run_command: commands run WITHOUT a sandbox');
			expect(sandboxEvent(root)).toMatchObject({ mode: 'none', network: true });
			expect(commandResult(root)).toMatchObject({
				isError: false,
				text: expect.stringMatching(/^exit code 0 .*\nran-unsandboxed$/),
			});
		});

		it('--unsandboxed-commands turns it on with the workspace config (whose network key stays ignored)', async () => {
			const { root } = workspace('echo ran-unsandboxed');
			const run = await runCli(['run', '--yes', '--trust-workspace', '--unsandboxed-commands', 'Run it'], {
				cwd: root,
				env: env(),
			});
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).not.toContain(ignoredSandbox);
			expect(run.stderr).toContain(ignoredNetwork);
			expect(sandboxEvent(root)).toMatchObject({ mode: 'none', network: false });
			expect(commandResult(root)).toMatchObject({
				isError: false,
				text: expect.stringContaining('ran-unsandboxed'),
			});
		});
	},
);

const bubblewrap = process.platform === 'linux' && (await detectSandbox()).sandbox !== null;

describe.runIf(bubblewrap && existsSync(cliPath))(
	'massgen run: a workspace config cannot give its commands the network (bubblewrap)',
	() => {
		// The interfaces of the command's network namespace (/proc is the sandbox's own): only `lo` without the network.
		const command = `awk -F: 'NR>2{gsub(/ /,"",$1);print $1}' /proc/net/dev`;

		it('from the workspace: the sandbox has no network and the key is named as ignored', async () => {
			const { root } = workspace(command);
			const run = await runCli(['run', '--yes', '--trust-workspace', 'Run it'], {
				cwd: root,
				env: { XDG_CONFIG_HOME: folder('massgen-optout-xdg-') },
			});
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toContain(ignoredNetwork);
			// With a sandbox, the opt-out key changes nothing and is still reported as ignored.
			expect(run.stderr).toContain(ignoredSandbox);
			expect(run.stderr).toContain(
				'run_command: commands run in a bubblewrap sandbox (only the scratch copy is writable; no network)',
			);
			expect(sandboxEvent(root)).toMatchObject({ mode: 'bubblewrap', network: false });
			expect(commandResult(root)).toMatchObject({
				isError: false,
				text: expect.stringMatching(/^exit code 0 .*\nlo$/),
			});
		});

		it('from outside the workspace: the network is allowed', async () => {
			const { root, config } = workspace(command);
			const run = await runCli(['run', '--yes', '--config', outsideCopy(config), 'Run it'], {
				cwd: root,
				env: { XDG_CONFIG_HOME: folder('massgen-optout-xdg-') },
			});
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).not.toContain(ignoredNetwork);
			expect(sandboxEvent(root)).toMatchObject({ mode: 'bubblewrap', network: true });
			// The host's own interfaces.
			const host = readFileSync('/proc/net/dev', 'utf8')
				.split('\n')
				.slice(2)
				.filter((line) => line.includes(':'))
				.map((line) => line.split(':')[0]!.trim());
			const listed = String(commandResult(root)?.text).split('\n').slice(1);
			expect(listed.sort()).toEqual(host.sort());
		});
	},
);
