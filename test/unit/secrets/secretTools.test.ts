import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScratchCopy } from '../../../src/core/exec/commandScratch.js';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { RunSnapshot } from '../../../src/core/workspace/runSnapshot.js';
import { secretPaths } from '../../../src/core/workspace/secretPaths.js';
import { hashTree, makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

const signal = new AbortController().signal;

/** One file per built-in pattern (some at depth), plus one the user adds; each holds a marker. */
const secretFiles = [
	'.env',
	'.env-production',
	'.env_local',
	'.envrc',
	'web/.env.example',
	'.npmrc',
	'packages/app/.npmrc',
	'.pypirc',
	'.netrc',
	'_netrc',
	'.git-credentials',
	'.aws/credentials',
	'.ssh/id_ed25519',
	'ci/.docker/config.json',
	'certs/server.pem',
	'tls/private.KEY',
	'deploy/id_rsa',
	'ops/kubeconfig',
	'.kube/config',
	'config/prod.yaml',
];
const marker = (path: string) => `MARKER-${path.replace(/[^A-Za-z0-9]/g, '_')}`;

async function setup() {
	const files: Record<string, string> = {
		'README.md': '# app MARKER-readme\n',
		'src/app.ts': 'export {};\n',
	};
	for (const path of secretFiles) files[path] = `${marker(path)}\n`;
	const root = await makeTree(files);
	const policy = secretPaths(['config/prod.yaml']);
	const workspace = await createWorkspace(root, { secretPaths: policy });
	const overlay = workspace.createOverlay();
	const toolbox = createToolbox({ overlay, writable: true });
	const call = (name: string, args: Record<string, unknown>) => toolbox.execute(name, args, signal);
	return { root, policy, call };
}

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) =>
		statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)],
	);
}

describe('secret files through the real workspace tools', () => {
	it('read_file, write_file, edit_file and delete_file refuse every one, and the disk stays as it was', async () => {
		const { root, call } = await setup();
		const before = hashTree(root);
		for (const path of secretFiles) {
			for (const [name, args] of [
				['read_file', { path }],
				['write_file', { path, content: 'x' }],
				['edit_file', { path, old_text: marker(path), new_text: 'y' }],
				['delete_file', { path }],
			] as const) {
				const outcome = await call(name, args);
				expect(outcome, `${name} ${path}`).toMatchObject({
					isError: true,
					text: expect.stringMatching(/is a secret path \(matches '/),
				});
				expect(outcome.text).not.toContain('MARKER');
			}
		}
		// Different case, a ./ prefix or a detour through .. do not help.
		for (const path of ['.NPMRC', './.envrc', 'src/../.aws/credentials', 'CONFIG/Prod.yaml']) {
			expect((await call('read_file', { path })).text, path).toMatch(/is a secret path/);
		}
		expect(hashTree(root)).toBe(before);
	});

	it('list_directory hides them and search_files never opens them', async () => {
		const { call } = await setup();
		const listings = await Promise.all(
			[
				'.',
				'packages/app',
				'ci',
				'ci/.docker',
				'.kube',
				'certs',
				'tls',
				'deploy',
				'ops',
				'config',
				'web',
			].map((path) => call('list_directory', { path })),
		);
		const listed = listings.map((outcome) => outcome.text).join('\n');
		for (const name of [
			'.env',
			'.envrc',
			'.npmrc',
			'.pypirc',
			'.netrc',
			'_netrc',
			'.git-credentials',
			'.aws',
			'.ssh',
			'config.json',
			'server.pem',
			'private.KEY',
			'id_rsa',
			'kubeconfig',
			'prod.yaml',
			'.env.example',
		]) {
			expect(
				listed.split(/\s+/).some((word) => word.replace(/\/$/, '') === name),
				name,
			).toBe(false);
		}
		expect(listed).toContain('README.md');
		// `.kube/` itself is an ordinary folder: only its `config` is secret.
		const kube = await call('list_directory', { path: '.kube' });
		expect(kube.isError).toBe(false);
		expect(kube.text).not.toMatch(/\bconfig\b/);
		const search = await call('search_files', { pattern: 'MARKER' });
		expect(search.text).toContain('README.md');
		expect(search.text).not.toMatch(/MARKER-(?!readme)/);
	});

	it('the scratch copy of run_command leaves every one out (the user’s pattern too)', async () => {
		const { root, policy } = await setup();
		const scratch = new ScratchCopy({ workspaceRoot: root, label: 'secrets', secretPaths: policy });
		try {
			const dir = await scratch.prepare(new Map(), new RunSnapshot(root));
			const copied = filesUnder(dir).map((file) => relative(dir, file).split('\\').join('/'));
			expect(copied.sort()).toEqual(['README.md', 'src/app.ts']);
			for (const path of secretFiles) expect(existsSync(join(dir, path)), path).toBe(false);
		} finally {
			await scratch.dispose();
		}
	});
});
