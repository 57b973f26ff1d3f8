// In-host: "MassGen: Add Context…" offers what VS Code knows (open editors, the git extension's
// changes, diagnostics, shell-integration commands, workspace files and images); each picked kind
// reaches every agent's first request (four SDKs against loopback servers); secret paths are never
// offered. The prompts are answered through the command's `answers` argument; the data is VS Code's.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { AttachmentChip } from '../../src/protocol/attachmentChip';
import { commandIds } from '../../src/vscode/common/commandIds';
import { chipsToRequests } from '../../src/vscode/context/chipRequest';
import type { AddedContext } from '../../src/vscode/context/addContext';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { until, useConfig, workspaceRoot } from './hostWaits';

const dir = 'ctx-pick';
const secret = 'zz-secret-CONTEXT-PICKERS-9191';
const aText = "export const alpha = 'context picker alpha';\n";
const bText = "export const beta = 'context picker beta';\n";
const png = Buffer.concat([
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	Buffer.from('ctx-pixels'),
]);
const pngBase64 = png.toString('base64');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDKs' request bodies, read by protocol below
type Body = Record<string, any>;
/** Each protocol's first user message content, from the raw wire body. */
const firstUserContent: Record<string, (body: Body) => unknown> = {
	responses: (body) => body['input'][0].content,
	chat: (body) => body['messages'].find((m: { role: string }) => m.role === 'user').content,
	anthropic: (body) => body['messages'][0].content,
	gemini: (body) => body['contents'][0].parts,
};
const expectedImage: Record<string, unknown> = {
	responses: { type: 'input_image', image_url: `data:image/png;base64,${pngBase64}`, detail: 'auto' },
	chat: { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
	anthropic: { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64 } },
	gemini: { inlineData: { mimeType: 'image/png', data: pngBase64 } },
};

/** The terminal attachment of a prompt (for a failure message). */
function terminalSection(text: string): string {
	const start = text.indexOf('<attachment kind="terminal"');
	return text.slice(start, text.indexOf('</attachment>', start) + 13);
}

describe('Add Context pickers (in VS Code, loopback servers)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let configDir: string;
	let root: string;
	let diagnostics: vscode.DiagnosticCollection;
	let ownsGit = false;
	let gitEnabledBefore: boolean | undefined;
	const uri = (path: string) => vscode.Uri.file(join(root, path));

	const addContext = (...answers: string[][]) =>
		vscode.commands.executeCommand<AddedContext | undefined>(commandIds.addContext, { answers });

	/** Runs a question with the chips (as the ask box sends them); every server's first request of it. */
	async function firstRequests(chips: readonly AttachmentChip[]) {
		const seen = Object.fromEntries(Object.entries(team.servers).map(([p, s]) => [p, s.requests.length]));
		const run = await api.runs.start({
			question: 'What does the attached context show?',
			kind: 'ask',
			attachments: chipsToRequests(chips),
		});
		assert.ok(run, 'the run finished');
		assert.equal(run.result.status, 'completed', run.result.error);
		return Object.entries(team.servers).map(([protocol, server]) => {
			const first = server.firstModelRequest(seen[protocol]!);
			assert.ok(first, `${protocol}: a request`);
			const text = first.prompt.texts.join('\n');
			assert.ok(!first.rawBody.includes(secret), `${protocol}: no secret on the wire`);
			return { protocol, text, body: first.body as Body };
		});
	}

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		root = workspaceRoot();
		mkdirSync(join(root, dir, 'folder'), { recursive: true });
		writeFileSync(join(root, dir, 'a.ts'), aText);
		writeFileSync(join(root, dir, 'b.ts'), bText);
		writeFileSync(join(root, dir, 'folder', 'inner.txt'), 'inner\n');
		writeFileSync(join(root, dir, '.env'), `TOKEN=${secret}\n`);
		writeFileSync(join(root, dir, 'shot.png'), png);
		team = await startLoopbackTeam();
		configDir = mkdtempSync(join(tmpdir(), 'massgen-pickers-'));
		writeFileSync(join(configDir, 'team.yaml'), team.configYaml());
		await useConfig(join(configDir, 'team.yaml'));
		diagnostics = vscode.languages.createDiagnosticCollection('massgen-pickers-test');
	});

	afterEach(async () => {
		diagnostics.clear();
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	after(async () => {
		diagnostics?.dispose();
		// Back to the user setting the harness gives (git.enabled: false), not to VS Code's default
		// (true): a Git extension left on keeps running git in the workspace after its .git is gone,
		// and a write to a git process that died (EPIPE) then fails whatever suite runs next.
		await vscode.workspace
			.getConfiguration('git')
			.update('enabled', gitEnabledBefore, vscode.ConfigurationTarget.Global);
		if (ownsGit) rmSync(join(root, '.git'), { recursive: true, force: true });
		await useConfig(undefined);
		await team?.close();
		rmSync(configDir, { recursive: true, force: true });
		rmSync(join(root, dir), { recursive: true, force: true });
	});

	it('open editors: the tabs of the folder, never a secret one; the files reach every agent', async () => {
		for (const name of ['a.ts', 'b.ts', '.env']) {
			await vscode.window.showTextDocument(uri(`${dir}/${name}`), { preview: false });
		}
		// .env is open but not offered: naming it answers nothing, so the picker cancels.
		const refused = await addContext(['Open Editors'], [`${dir}/.env`]);
		assert.equal(refused?.cancelled, true);
		const offered = refused.notes.find((note) => note.startsWith('no item '))?.split(' among ')[1] ?? '';
		assert.ok(offered.includes(`"${dir}/a.ts","${dir}/b.ts"`), refused.notes.join('\n'));
		assert.ok(!offered.includes('.env'), offered);
		const added = await addContext(['Open Editors'], [`${dir}/a.ts`, `${dir}/b.ts`]);
		assert.ok(added);
		assert.equal(added.cancelled, false);
		assert.deepEqual(
			added.chips.map((chip) => chip.request),
			[
				{ kind: 'file', path: `${dir}/a.ts` },
				{ kind: 'file', path: `${dir}/b.ts` },
			],
		);
		assert.ok(
			added.notes.some((note) => note.includes(`'${dir}/.env' is a secret path (matches '.env*')`)),
			added.notes.join('\n'),
		);
		for (const { protocol, text } of await firstRequests(added.chips)) {
			assert.ok(
				text.includes(`<attachment kind="file" source="${dir}/a.ts">\n${aText}`),
				`${protocol}: a.ts`,
			);
			assert.ok(
				text.includes(`<attachment kind="file" source="${dir}/b.ts">\n${bText}`),
				`${protocol}: b.ts`,
			);
		}
	});

	it('git changes: says so while Git is disabled; then lists the working tree and staged files and attaches both diffs', async () => {
		const off = await addContext(['Git Changes']);
		assert.deepEqual(off?.chips, []);
		assert.deepEqual(off?.notes, [
			'git changes cannot be listed: the built-in Git extension is disabled ("git.enabled").',
		]);

		ownsGit = !existsSync(join(root, '.git'));
		assert.ok(ownsGit, 'the test workspace is not a repository of its own');
		const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
		git('init', '-q');
		git('add', dir);
		git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
		writeFileSync(join(root, dir, 'a.ts'), `${aText}export const added = 'working tree hunk';\n`);
		writeFileSync(join(root, dir, 'b.ts'), `${bText}export const staged = 'staged hunk';\n`);
		writeFileSync(join(root, dir, '.env'), `TOKEN=${secret}-changed\n`);
		git('add', `${dir}/b.ts`);
		gitEnabledBefore = vscode.workspace.getConfiguration('git').inspect<boolean>('enabled')?.globalValue;
		await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
		const gitApi = await until('the git extension to be enabled', () => {
			const exports = vscode.extensions.getExtension('vscode.git')?.exports as
				| { enabled: boolean; getAPI(v: 1): { openRepository(root: vscode.Uri): Promise<unknown> } }
				| undefined;
			return exports?.enabled ? exports.getAPI(1) : undefined;
		});
		await gitApi.openRepository(vscode.Uri.file(root));

		const added = await addContext(['Git Changes'], ['working tree changes', 'staged changes']);
		assert.equal(added?.chips.length, 2, JSON.stringify(added?.notes));
		assert.deepEqual(
			added.chips.map((chip) => chip.request),
			[
				{ kind: 'diff', source: 'working-tree' },
				{ kind: 'diff', source: 'staged' },
			],
		);
		// The rest of the test workspace is untracked (only ctx-pick/ was committed).
		assert.match(
			added.chips[0]!.detail ?? '',
			new RegExp(
				`^1 file: ${dir}/a\\.ts; 1 secret file\\(s\\) left out; \\d+ untracked file\\(s\\) not in a diff$`,
			),
		);
		assert.equal(added.chips[1]!.detail, `1 file: ${dir}/b.ts`);
		for (const { protocol, text } of await firstRequests(added.chips)) {
			assert.match(text, /<attachment kind="diff" source="working-tree">/, protocol);
			assert.ok(
				text.includes("+export const added = 'working tree hunk';"),
				`${protocol}: the working tree hunk`,
			);
			assert.ok(text.includes("+export const staged = 'staged hunk';"), `${protocol}: the staged hunk`);
			assert.ok(text.includes(`[left out ${dir}/.env: refused:`), `${protocol}: the secret file left out`);
		}
	});

	it('problems: the workspace errors and warnings, one request per file with position, message and source(code); none for a secret file', async () => {
		const error = new vscode.Diagnostic(new vscode.Range(0, 13, 0, 18), 'Picker error: alpha is unused', 0);
		error.source = 'lint';
		error.code = 'no-unused';
		const warning = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 6), 'Picker warning: prefer let', 1);
		const hint = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'Picker hint: not attached', 3);
		diagnostics.set([
			[uri(`${dir}/a.ts`), [error, hint]],
			[uri(`${dir}/b.ts`), [warning]],
			[
				uri(`${dir}/.env`),
				[new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), `Picker secret ${secret}`, 0)],
			],
		]);
		const result = await addContext(['Problems'], ['Workspace Errors and Warnings']);
		assert.ok(result);
		const mine = result.chips.filter((chip) => chip.label.startsWith(`problems in ${dir}/`));
		assert.deepEqual(
			mine.map((chip) => [chip.label, chip.detail]),
			[
				[`problems in ${dir}/a.ts`, '1 error'],
				[`problems in ${dir}/b.ts`, '1 warning'],
			],
		);
		for (const { protocol, text } of await firstRequests(mine)) {
			assert.ok(
				text.includes(`${dir}/a.ts:1:14: error: Picker error: alpha is unused (lint(no-unused))`),
				`${protocol}: the error with its position and source`,
			);
			assert.ok(
				text.includes(`${dir}/b.ts:1:1: warning: Picker warning: prefer let`),
				`${protocol}: the warning`,
			);
			assert.ok(!text.includes('Picker hint'), `${protocol}: hints stay out of the workspace's problems`);
		}
	});

	it('terminal output: the last command of a terminal with shell integration, labelled with the terminal and the command line', async () => {
		const terminal = vscode.window.createTerminal({ name: 'massgen-ctx', shellPath: '/bin/bash', cwd: root });
		try {
			terminal.show();
			const integration = await new Promise<vscode.TerminalShellIntegration | undefined>((resolve) => {
				if (terminal.shellIntegration) return resolve(terminal.shellIntegration);
				const listener = vscode.window.onDidChangeTerminalShellIntegration((event) => {
					if (event.terminal !== terminal) return;
					listener.dispose();
					resolve(event.shellIntegration);
				});
			});
			assert.ok(integration, 'shell integration in the test terminal');
			// The command waits for a line typed once it has started, so its output comes after the
			// extension began reading (VS Code does not replay what a fast command printed before).
			// Its output (upper case) is in neither the command line nor the typed text.
			const commandLine = 'head -n 1 | tr a-z A-Z';
			const started = vscode.window.onDidStartTerminalShellExecution((event) => {
				if (event.terminal === terminal) terminal.sendText('ctx-terminal-out');
			});
			const ended = new Promise<void>((resolve) => {
				const listener = vscode.window.onDidEndTerminalShellExecution((event) => {
					if (event.terminal !== terminal) return;
					listener.dispose();
					resolve();
				});
			});
			integration.executeCommand(commandLine);
			await ended;
			started.dispose();
			// The extension records the execution once its output stream has ended too.
			let added: AddedContext | undefined;
			for (let attempt = 0; attempt < 100 && !added?.chips.length; attempt++) {
				added = await addContext(['Terminal Output'], [commandLine]);
				if (!added?.chips.length) await new Promise((resolve) => setTimeout(resolve, 50));
			}
			assert.ok(added?.chips.length, `the command offered: ${JSON.stringify(added?.notes)}`);
			const [chip] = added.chips;
			assert.equal(chip!.label, `massgen-ctx: ${commandLine}`);
			assert.equal(chip!.request.kind, 'terminal');
			for (const { protocol, text } of await firstRequests(added.chips)) {
				assert.ok(
					text.includes(
						`<attachment kind="terminal" source="massgen-ctx: ${commandLine}">\n$ ${commandLine}\n`,
					),
					`${protocol}: the terminal and the command line`,
				);
				assert.match(
					text,
					/\nCTX-TERMINAL-OUT\n\[exit code 0\]/,
					`${protocol}: the output and the exit code in ${JSON.stringify(terminalSection(text))}`,
				);
			}
		} finally {
			terminal.dispose();
		}
	});

	it('file or folder: picked ones reach every agent; a secret one picked in the dialog is refused with the reason', async () => {
		const added = await addContext(['File or Folder…'], [`${dir}/folder`, `${dir}/a.ts`, `${dir}/.env`]);
		assert.ok(added);
		assert.deepEqual(
			added.chips.map((chip) => [chip.request, chip.detail]),
			[
				[{ kind: 'path', path: `${dir}/folder` }, 'folder'],
				[{ kind: 'path', path: `${dir}/a.ts` }, 'file'],
			],
		);
		assert.deepEqual(added.notes, [`not attached: '${dir}/.env' is a secret path (matches '.env*').`]);
		for (const { protocol, text } of await firstRequests(added.chips)) {
			assert.ok(
				text.includes(`<attachment kind="folder" source="${dir}/folder">\n${dir}/folder/inner.txt\n`),
				`${protocol}: the folder listing`,
			);
			assert.ok(text.includes(`<attachment kind="file" source="${dir}/a.ts">\n`), `${protocol}: the file`);
		}
	});

	it("image: a workspace PNG with a thumbnail; every agent gets it in its own protocol's image shape", async () => {
		const added = await addContext(['Image…'], [`${dir}/shot.png`]);
		assert.ok(added);
		assert.equal(added.chips.length, 1);
		const [chip] = added.chips;
		assert.deepEqual(chip!.request, { kind: 'path', path: `${dir}/shot.png` });
		assert.equal(chip!.thumbnail, `data:image/png;base64,${pngBase64}`);
		for (const { protocol, body } of await firstRequests(added.chips)) {
			const content = firstUserContent[protocol]!(body) as unknown[];
			assert.ok(
				content.some((part) => JSON.stringify(part) === JSON.stringify(expectedImage[protocol])),
				`${protocol}: the image bytes in its own shape`,
			);
		}
	});
});
