import { describe, expect, it } from 'vitest';
import { cliSandboxArgs } from '../../../../src/core/providers/codingAgents/cliSandbox.js';

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
	it('own PID namespace, system read-only, masks first, then the writable folders, dependencies read-only last', () => {
		const args = cliSandboxArgs({ ...base, writableIfPresent: ['/home/u/.claude'] });
		expect(args.slice(0, 5)).toEqual(['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/']);
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
		// The network stays shared: the CLI reaches its API.
		expect(args.filter((arg) => arg.startsWith('--unshare-'))).toEqual(['--unshare-pid']);
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
});
