import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSandboxArgs } from '../../../../src/core/providers/codingAgents/cliSandbox.js';
import { isolationArgs, nestedUid } from '../../../../src/core/exec/sandbox/sandboxProfile.js';

const base = {
	folder: '/tmp/massgen-cc-x/work',
	writable: ['/tmp/massgen-cc-x/home'],
	dependencyMounts: [{ source: '/ws/node_modules', target: '/tmp/massgen-cc-x/work/node_modules' }],
	hidden: ['/ws'],
	install: '/opt/cli',
};

/** The index of the first `flag` followed by `path` (bwrap applies mounts in order: later covers earlier). */
const at = (args: string[], flag: string, path: string) =>
	args.findIndex((arg, index) => arg === flag && args[index + 1] === path);

describe('the coding agents’ bubblewrap (cliSandbox)', () => {
	it('the command sandbox profile, system read-only, masks first, then the writable folders, dependencies read-only last', () => {
		const args = cliSandboxArgs({ ...base, writableIfPresent: ['/home/u/.claude'] });
		// The same isolation as a command's (sandboxArgs.test.ts), with the network shared.
		expect(args.slice(0, 11)).toEqual([
			...isolationArgs({ strict: true, network: true }),
			'--ro-bind',
			'/',
			'/',
		]);
		expect(args.slice(0, 8)).toEqual([
			'--die-with-parent',
			'--new-session',
			'--unshare-all',
			'--unshare-user',
			'--disable-userns',
			'--share-net',
			'--cap-drop',
			'ALL',
		]);
		const masks = ['/tmp', '/run', '/ws'].map((path) => at(args, '--tmpfs', path));
		expect(masks.every((index) => index > 0)).toBe(true);
		const folder = at(args, '--bind', base.folder);
		const home = at(args, '--bind', base.writable[0]!);
		expect(Math.min(folder, home)).toBeGreaterThan(Math.max(...masks));
		expect(at(args, '--bind-try', '/home/u/.claude')).toBeGreaterThan(home);
		const dependency = args.indexOf('/ws/node_modules');
		expect(args[dependency - 1]).toBe('--ro-bind');
		expect(dependency).toBeGreaterThan(folder);
		expect(args.slice(-2)).toEqual(['--chdir', base.folder]);
	});

	it('Codex (its own sandbox is a nested bubblewrap): user namespaces allowed inside, not as root', () => {
		const args = cliSandboxArgs({ ...base, nestedUserNamespaces: true });
		expect(args).not.toContain('--disable-userns');
		expect(args).toEqual(expect.arrayContaining(['--unshare-user', '--cap-drop', 'ALL', '--new-session']));
		if (process.getuid?.() === 0) expect(at(args, '--uid', nestedUid)).toBeGreaterThan(0);
		// Setuid bubblewrap without user namespaces: no --unshare-user, still no capabilities.
		const setuid = cliSandboxArgs({ ...base, strict: false });
		expect(setuid).not.toContain('--unshare-user');
		expect(setuid).toEqual(expect.arrayContaining(['--cap-drop', 'ALL']));
	});

	it('secret files inside a dependency folder are covered after it is bound: files by /dev/null, folders by a tmpfs', () => {
		const target = base.dependencyMounts[0]!.target;
		const args = cliSandboxArgs({
			...base,
			dependencyMounts: [
				{
					...base.dependencyMounts[0]!,
					masks: [
						{ target: `${target}/pkg/.env`, folder: false },
						{ target: `${target}/pkg/.ssh`, folder: true },
					],
				},
			],
		});
		const bound = at(args, '--ro-bind', '/ws/node_modules');
		expect(at(args, '--ro-bind', '/dev/null')).toBeGreaterThan(bound);
		expect(args[at(args, '--ro-bind', '/dev/null') + 2]).toBe(`${target}/pkg/.env`);
		expect(at(args, '--tmpfs', `${target}/pkg/.ssh`)).toBeGreaterThan(bound);
	});

	it('a CLI installed under a masked folder comes back read-only, after the mask; elsewhere it is left alone', () => {
		const inWorkspace = cliSandboxArgs({
			...base,
			install: '/ws/node_modules/@openai/codex-linux-x64/vendor/x',
		});
		const back = at(inWorkspace, '--ro-bind', '/ws/node_modules/@openai/codex-linux-x64/vendor/x');
		expect(back).toBeGreaterThan(at(inWorkspace, '--tmpfs', '/ws'));
		const inTmp = cliSandboxArgs({ ...base, install: '/tmp/checkout/node_modules/.bin' });
		expect(at(inTmp, '--ro-bind', '/tmp/checkout/node_modules/.bin')).toBeGreaterThan(0);
		expect(at(cliSandboxArgs(base), '--ro-bind', '/opt/cli')).toBe(-1);
	});

	it('the user’s data is hidden as from commands; the CLI’s install, tools and writable folders under it come back after', () => {
		// Real folders (only existing ones are hidden), outside the OS temp folder (tools never come from there).
		const user = mkdtempSync('/var/tmp/massgen-cli-home-');
		try {
			const home = join(user, 'home');
			const workspace = join(user, 'projects', 'ws');
			const install = join(home, '.local', 'bin');
			// Where the native installer's `~/.local/bin/claude` link leads.
			const version = join(home, '.local', 'share', 'claude', 'versions', '2.1');
			const node = join(home, '.nvm', 'versions', 'node', 'v22', 'bin');
			const inWorkspace = join(workspace, 'bin');
			const state = join(home, '.massgen', 'agent-home');
			for (const dir of [install, version, node, inWorkspace, state]) mkdirSync(dir, { recursive: true });
			const args = cliSandboxArgs({
				...base,
				writable: [state],
				writableIfPresent: [join(home, '.claude')],
				hidden: [workspace],
				hostHome: home,
				path: [node, inWorkspace, '/usr/bin'].join(':'),
				install: [install, version],
			});
			const masks = [home, join(user, 'projects'), workspace, '/var/tmp'].map((path) =>
				at(args, '--tmpfs', path),
			);
			expect(masks.every((index) => index > 0)).toBe(true);
			const last = Math.max(...masks);
			expect(at(args, '--ro-bind', install)).toBeGreaterThan(last);
			expect(at(args, '--ro-bind', version)).toBeGreaterThan(last);
			expect(at(args, '--ro-bind', node)).toBeGreaterThan(last);
			expect(at(args, '--bind', state)).toBeGreaterThan(last);
			expect(at(args, '--bind-try', join(home, '.claude'))).toBeGreaterThan(last);
			// Never back: the workspace's own folders, system folders (visible anyway), the home whole.
			expect(at(args, '--ro-bind', inWorkspace)).toBe(-1);
			expect(at(args, '--ro-bind', '/usr/bin')).toBe(-1);
			expect(at(args, '--ro-bind', home)).toBe(-1);
		} finally {
			rmSync(user, { recursive: true, force: true });
		}
	});
});
