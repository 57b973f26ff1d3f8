import { describe, expect, it } from 'vitest';
import { bubblewrapArgs, bubblewrapSandbox } from '../../../src/core/exec/sandbox/bubblewrap.js';
import { chooseCommandSandbox } from '../../../src/core/exec/sandbox/commandSandboxPolicy.js';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { sandboxExecProfile } from '../../../src/core/exec/sandbox/sandboxExec.js';
import type { SandboxRequest } from '../../../src/core/exec/sandbox/commandSandbox.js';

const request: SandboxRequest = {
	scratchDir: '/tmp/massgen-cmd-a',
	cwd: '/tmp/massgen-cmd-a/src',
	homeDir: '/tmp/massgen-cmd-a.home',
	readOnlyBinds: [
		{ source: '/home/u/.cargo/bin', target: '/home/u/.cargo/bin' },
		{ source: '/home/u/proj/node_modules', target: '/tmp/massgen-cmd-a/node_modules' },
	],
	hiddenPaths: ['/home/u/proj', '/home/u', '/tmp'],
	network: false,
};

/** The index of `flag value…` in an argv (-1 when absent). */
function at(args: readonly string[], ...sequence: string[]): number {
	return args.findIndex((_, i) => sequence.every((part, j) => args[i + j] === part));
}

describe('bubblewrap arguments', () => {
	it('hides the workspace, $HOME, /tmp and /run, then binds the copy writable and dependency folders read-only on top', () => {
		const args = bubblewrapArgs(request);
		expect(args.slice(0, 7)).toEqual([
			'--die-with-parent',
			'--new-session',
			'--unshare-all',
			'--unshare-user',
			'--disable-userns',
			'--cap-drop',
			'ALL',
		]);
		expect(bubblewrapArgs(request, false).slice(0, 5)).toEqual([
			'--die-with-parent',
			'--new-session',
			'--unshare-all',
			'--cap-drop',
			'ALL',
		]);
		expect(args).not.toContain('--share-net');
		const system = at(args, '--ro-bind', '/', '/');
		const hidden = ['/home/u/proj', '/home/u', '/tmp', '/run'].map((path) => at(args, '--tmpfs', path));
		const scratch = at(args, '--bind', request.scratchDir, request.scratchDir);
		const home = at(args, '--bind', request.homeDir, request.homeDir);
		const tools = at(args, '--ro-bind', '/home/u/.cargo/bin', '/home/u/.cargo/bin');
		const dependencies = at(
			args,
			'--ro-bind',
			'/home/u/proj/node_modules',
			'/tmp/massgen-cmd-a/node_modules',
		);
		expect(system).toBeGreaterThan(0);
		for (const index of hidden) expect(index).toBeGreaterThan(system);
		// Later mounts shadow earlier ones: the order is the security property.
		expect(tools).toBeGreaterThan(Math.max(...hidden));
		expect(scratch).toBeGreaterThan(Math.max(...hidden));
		expect(home).toBeGreaterThan(Math.max(...hidden));
		expect(dependencies).toBeGreaterThan(scratch);
		expect(args.slice(-2)).toEqual(['--chdir', request.cwd]);
		expect(args.filter((arg) => arg === '--tmpfs')).toHaveLength(4);
	});

	it('shares the network only when allowed, and wraps the shell after --', () => {
		expect(bubblewrapArgs({ ...request, network: true })).toContain('--share-net');
		const argv = bubblewrapSandbox('/usr/bin/bwrap').wrap(['/bin/sh', '-c', 'ls'], request);
		expect(argv[0]).toBe('/usr/bin/bwrap');
		expect(argv.slice(-4)).toEqual(['--', '/bin/sh', '-c', 'ls']);
	});
});

describe('sandbox-exec profile (macOS; only the text is testable here)', () => {
	it('denies writes but the copy and home, reads of the hidden folders but the binds, the network and other processes', () => {
		const profile = sandboxExecProfile({
			...request,
			hiddenPaths: ['/Users/u/proj', '/Users/u', '/private/var/folders/x'],
			readOnlyBinds: [{ source: '/Users/u/proj/node_modules', target: '/x/node_modules' }],
		});
		const lines = profile.trim().split('\n');
		expect(lines.slice(0, 2)).toEqual(['(version 1)', '(allow default)']);
		expect(lines).toContain('(deny network*)');
		expect(lines).toContain('(deny process-info* (target others))');
		expect(lines).toContain(
			'(deny file-read* (subpath "/Users/u/proj") (subpath "/Users/u") (subpath "/private/var/folders/x"))',
		);
		expect(lines).toContain(
			'(allow file-read* (subpath "/Users/u/proj/node_modules") (subpath "/tmp/massgen-cmd-a") (subpath "/tmp/massgen-cmd-a.home"))',
		);
		// SBPL: the last matching rule wins, so each allow follows its deny.
		expect(lines.indexOf('(deny file-write*)')).toBeLessThan(
			lines.findIndex((line) => line.startsWith('(allow file-write*')),
		);
		expect(lines.find((line) => line.startsWith('(allow file-write*'))).toBe(
			'(allow file-write* (subpath "/tmp/massgen-cmd-a") (subpath "/tmp/massgen-cmd-a.home") (literal "/dev/null") (regex #"^/dev/(tty|fd/)"))',
		);
		expect(sandboxExecProfile({ ...request, network: true })).not.toContain('network');
		expect(sandboxExecProfile({ ...request, scratchDir: '/a "quoted" \\ dir' })).toContain(
			'(subpath "/a \\"quoted\\" \\\\ dir")',
		);
	});
});

describe('which mode a run uses', () => {
	// The real-sandbox tests need bubblewrap; where it cannot start this test fails (so they never skip silently),
	// unless the machine opts out with MASSGEN_ALLOW_NO_SANDBOX=1 (e.g. a container without user namespaces).
	it.skipIf(process.env['MASSGEN_ALLOW_NO_SANDBOX'] === '1')(
		'bubblewrap starts here (the real-sandbox tests run)',
		async () => {
			const detection = await detectSandbox();
			expect(detection.sandbox?.mode, 'reason' in detection ? detection.reason : '').toBe('bubblewrap');
		},
	);

	it('reports a missing bwrap with the package to install, and refuses other platforms', async () => {
		const missing = await detectSandbox({ platform: 'linux', bwrapPath: '/nonexistent/bwrap' });
		expect(missing).toEqual({
			sandbox: null,
			reason:
				'bubblewrap is not installed (/nonexistent/bwrap not found; Debian/Ubuntu: apt-get install bubblewrap)',
		});
		expect(await detectSandbox({ platform: 'linux', path: '/nonexistent' })).toMatchObject({
			sandbox: null,
			reason: expect.stringContaining('bwrap not found'),
		});
		expect(await detectSandbox({ platform: 'win32' })).toEqual({
			sandbox: null,
			reason: 'no OS sandbox is supported on win32',
		});
		if (process.platform !== 'darwin') {
			expect(await detectSandbox({ platform: 'darwin' })).toEqual({
				sandbox: null,
				reason: '/usr/bin/sandbox-exec is missing',
			});
		}
	});

	it('a bwrap that cannot start a sandbox counts as none (the reason is its error)', async () => {
		// `false` exists and is executable but never starts anything: like bwrap without user namespaces.
		const broken = await detectSandbox({ platform: 'linux', bwrapPath: '/bin/false' });
		expect(broken).toEqual({ sandbox: null, reason: 'bubblewrap cannot start a sandbox here (exit 1)' });
	});

	it('is off without a sandbox unless the user opted in, and says so either way', () => {
		const none = { sandbox: null, reason: 'bubblewrap is not installed' } as const;
		const off = chooseCommandSandbox('required', none, false);
		expect(off.sandbox).toBeNull();
		expect(off.notice).toMatch(
			/^run_command is off: bubblewrap is not installed\. To run commands without a sandbox .* set --unsandboxed-commands.*massgen\.commands\.allowUnsandboxed.*permissions\.command_sandbox: allow-unsandboxed in a team config outside the workspace$/,
		);
		const optedIn = chooseCommandSandbox('allow-unsandboxed', none, false);
		expect(optedIn.sandbox?.mode).toBe('none');
		expect(optedIn.notice).toMatch(
			/commands run WITHOUT a sandbox \(bubblewrap is not installed\), as opted in: a command can read and change anything your user can/,
		);
		const walled = chooseCommandSandbox(
			'allow-unsandboxed',
			{ sandbox: bubblewrapSandbox('/usr/bin/bwrap') },
			false,
		);
		expect(walled.sandbox?.mode).toBe('bubblewrap');
		expect(walled.notice).toBe(
			'run_command: commands run in a bubblewrap sandbox (only the scratch copy is writable; no network)',
		);
	});
});
