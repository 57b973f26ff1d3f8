import { existsSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxRequest } from '../../../src/core/exec/sandbox/sandboxRequest.js';

describe('what a command may see', () => {
	it('hides the workspace, its siblings, the homes, the temp folder and user data roots; brings back only tool folders under them that do not hold the workspace', () => {
		const home = realpathSync(mkdtempSync(join(tmpdir(), 'massgen-home-')));
		const temp = realpathSync(mkdtempSync(join(tmpdir(), 'massgen-temp-')));
		for (const folder of [
			'.cargo/bin',
			'projects/app/node_modules/.bin',
			'.nvm/versions/node/v20/bin',
			'bin',
		]) {
			mkdirSync(join(home, folder), { recursive: true });
		}
		const workspace = join(home, 'projects/app');
		const path = [
			join(home, '.cargo/bin'),
			join(home, 'projects'), // holds the workspace: never bound back
			join(workspace, 'node_modules/.bin'), // inside the workspace: never bound back
			join(home, 'missing/bin'), // does not exist
			home,
			'/usr/bin',
			'relative/bin',
		].join(':');
		const request = sandboxRequest(
			{
				workspaceRoot: workspace,
				hostHome: home,
				tempRoot: temp,
				path,
				execPath: join(home, '.nvm/versions/node/v20/bin/node'),
			},
			{
				scratchDir: join(temp, 'copy'),
				cwd: join(temp, 'copy'),
				homeDir: join(temp, 'copy.home'),
				dependencyMounts: [
					{ source: join(workspace, 'node_modules'), target: join(temp, 'copy/node_modules') },
				],
				network: false,
			},
		);
		expect(request.hiddenPaths.slice(0, 2)).toEqual([workspace, home]);
		// Sibling checkouts beside the workspace, the temp folder, and where users keep data.
		expect(request.hiddenPaths).toEqual(expect.arrayContaining([temp, join(home, 'projects')]));
		for (const root of ['/home', '/root', '/mnt', '/media', '/srv', '/workspaces', '/var/tmp']) {
			if (existsSync(root)) expect(request.hiddenPaths).toContain(realpathSync(root));
		}
		for (const system of ['/', '/usr', '/etc', '/opt', '/var', '/tmp']) {
			expect(request.hiddenPaths).not.toContain(system);
		}
		expect(request.readOnlyBinds).toEqual([
			{ source: join(home, '.cargo/bin'), target: join(home, '.cargo/bin') },
			{ source: join(home, '.nvm/versions/node/v20'), target: join(home, '.nvm/versions/node/v20') },
			{ source: join(workspace, 'node_modules'), target: join(temp, 'copy/node_modules') },
		]);
	});
});
