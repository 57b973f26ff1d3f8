/**
 * The overlay scratch as an attacker meets it: `run_command` through the tool on real bubblewrap
 * inside a real overlay mount. What it must hide stays hidden (also a secret the user creates
 * mid-run), nothing a command does reaches the workspace (sha256 of every file before and after),
 * and a link a command leaves cannot redirect the edits we write between commands.
 */
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { OverlayScratch } from '../../../src/core/exec/overlayScratch.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { runCommandTool } from '../../../src/core/tools/runCommandTool.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import type { Overlay } from '../../../src/core/workspace/types.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { hashFiles } from '../../support/tempTree.js';

const detection = process.platform === 'linux' ? await detectSandbox() : { sandbox: null };
const tools = detection.sandbox?.overlay;
const ripgrep = ripgrepOnPath(process.env) ?? undefined;
const made: { dispose(): Promise<void> }[] = [];
const folders: string[] = [];
afterAll(async () => {
	await Promise.all(made.map((scratch) => scratch.dispose()));
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function team(files: Record<string, string>, onSpawn?: () => void) {
	const root = makeWorkspaceDir(files);
	folders.push(root);
	const workspace = await createWorkspace(root);
	const scratch = new OverlayScratch({
		workspaceRoot: root,
		label: 'attack',
		tools: tools!,
		ripgrep: ripgrep!,
	});
	made.push(scratch);
	const tool = runCommandTool({
		timeoutMs: 20_000,
		maxOutputBytes: 64 * 1024,
		parentEnv: { PATH: process.env['PATH'], HOME: tmpdir() },
		sandbox: detection.sandbox!,
		network: false,
		workspaceRoot: root,
		scratch: () => scratch,
		...(onSpawn ? { onSpawn } : {}),
	});
	const overlay = workspace.createOverlay();
	const run = (command: string, agentOverlay: Overlay = overlay) =>
		tool.execute(
			{ command },
			{ agentId: 'a', overlay: agentOverlay, phase: 'coordination', signal: new AbortController().signal },
		);
	const output = async (command: string, agentOverlay: Overlay = overlay) => {
		const outcome = await run(command, agentOverlay);
		expect(outcome.isError, outcome.text).toBe(false);
		return outcome.text.split('\n').slice(1).join('\n');
	};
	return { root, workspace, overlay, run, output };
}

describe.runIf(tools !== undefined && ripgrep !== undefined)(
	'overlay scratch (real overlay, real bubblewrap)',
	() => {
		it('shows what git would see and hides .git, .massgen, secrets, ignored files and links out of the workspace', async () => {
			const { root, output } = await team({
				'.gitignore': 'dist/\n*.log\n',
				'src/a.ts': 'export const a = 1;\n',
				'notes.txt': 'untracked, not ignored\n',
				'node_modules/x/index.js': 'module.exports = 42;\n',
				'dist/out.js': 'built\n',
				'debug.log': 'log\n',
				'.git/config': '[core]\n',
				'.massgen/runs/r/result.json': '{}\n',
				'.env': 'SECRET=overlay-secret-1\n',
				'pkg/.env.local': 'SECRET=overlay-secret-2\n',
				'.ssh/id_ed25519': 'overlay-secret-3\n',
			});
			symlinkSync('src/a.ts', join(root, 'relative-link.ts'));
			symlinkSync(join(root, 'src'), join(root, 'absolute-link'));
			symlinkSync('/etc/hostname', join(root, 'outside-link'));
			const listing = await output('find . | sort; cat absolute-link/a.ts relative-link.ts');
			expect(listing.split('\n')).toEqual([
				'.',
				'./.gitignore',
				'./absolute-link',
				'./node_modules',
				'./node_modules/x',
				'./node_modules/x/index.js',
				'./notes.txt',
				'./pkg',
				'./relative-link.ts',
				'./src',
				'./src/a.ts',
				'export const a = 1;',
				'export const a = 1;',
			]);
		});

		it('nothing a command does reaches the workspace, and its changes stay for the next command', async () => {
			const { root, output } = await team({
				'README.md': 'readme\n',
				'src/a.ts': 'export const a = 1;\n',
				'node_modules/x/index.js': 'module.exports = 42;\n',
			});
			const outside = mkdtempSync(join('/var/tmp', 'massgen-overlay-outside-'));
			folders.push(outside);
			const before = hashFiles(root, { folders: true });
			await output(
				`rm -rf src node_modules/x; echo changed > README.md; mkdir made; echo new > made/file; ln -s ${outside} escape; chmod 000 README.md; mv made moved`,
			);
			expect(hashFiles(root, { folders: true })).toEqual(before);
			expect(readdirSync(outside)).toEqual([]);
			expect(await output('chmod 644 README.md; cat README.md; ls; ls node_modules')).toBe(
				'changed\nREADME.md\nescape\nmoved\nnode_modules',
			);
			expect(hashFiles(root, { folders: true })).toEqual(before);
		});

		it('a link a command leaves in place of a folder does not redirect the agent’s next edit', async () => {
			const { root, overlay, output } = await team({ 'src/a.ts': 'export const a = 1;\n' });
			const outside = mkdtempSync(join('/var/tmp', 'massgen-overlay-outside-'));
			folders.push(outside);
			const before = hashFiles(root, { folders: true });
			await output(`rm -rf src && ln -s ${outside} src`);
			await overlay.write('src/a.ts', 'export const a = 2;\n');
			await overlay.write('src/b.ts', 'export const b = 1;\n');
			// The command's link stays (its own state); our writes went nowhere through it.
			await output('true');
			expect(readdirSync(outside)).toEqual([]);
			expect(hashFiles(root, { folders: true })).toEqual(before);
		});

		it('the agent’s edits and deletions show in commands; a dropped edit shows the base again', async () => {
			const { root, workspace, overlay, output } = await team({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
			expect(await overlay.readText('a.txt')).toBe('a\n');
			writeFileSync(join(root, 'a.txt'), 'the user saved this mid-run\n');
			await overlay.write('a.txt', 'edited\n');
			await overlay.delete('b.txt');
			await overlay.write('new/c.txt', 'c\n');
			expect(await output('cat a.txt new/c.txt; test -e b.txt && echo b || echo no-b')).toBe(
				'edited\nc\nno-b',
			);
			// The agent starts over (a new answer): its edits are gone, the bases the run read show again
			// (the folder its new file needed stays, empty, as in a copy).
			expect(await output('cat a.txt b.txt; ls; ls new', workspace.createOverlay())).toBe(
				'a\nb\na.txt\nb.txt\nnew',
			);
			expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('the user saved this mid-run\n');
			expect(existsSync(join(root, 'new'))).toBe(false);
		});

		it('a secrets file the user creates between commands is hidden from the next command', async () => {
			const { root, output } = await team({ 'README.md': 'readme\n' });
			expect(await output('ls -a')).toBe('.\n..\nREADME.md');
			writeFileSync(join(root, '.env.production'), 'SECRET=overlay-secret-4\n');
			mkdirSync(join(root, 'deploy'));
			writeFileSync(join(root, 'deploy', 'server.pem'), 'overlay-secret-5\n');
			const listing = await output('ls -a . deploy; cat .env.production deploy/server.pem 2>&1');
			expect(listing).not.toMatch(/overlay-secret/);
			expect(listing).toContain('deploy:\n.\n..\n');
		});

		it('a secret that appears while a command runs: its output is withheld and its changes discarded', async () => {
			let root = '';
			let spawned = 0;
			// Written as the command's sandbox starts: after the look for secrets before it, before its `cat`.
			const {
				output,
				run,
				root: made,
			} = await team({ 'README.md': 'readme\n' }, () => {
				if (spawned++ === 0) writeFileSync(join(root, '.env'), 'SECRET=overlay-secret-6\n');
			});
			root = made;
			const outcome = await run('sleep 0.3; cat .env > stolen.txt 2>&1; cat stolen.txt');
			expect(outcome.isError).toBe(true);
			expect(outcome.text).toMatch(
				/a secrets file appeared in the workspace while the command ran \(\.env\)/,
			);
			expect(outcome.text).not.toContain('overlay-secret-6');
			rmSync(join(root, '.env'));
			// The next command starts from a scratch without what that command made.
			expect(await output('ls')).toBe('README.md');
		});
	},
);
