// In-host: what Ask Team and the "Ask MassGen team to fix" quick fix attach from the editor
// reaches every agent's first request (four SDKs against loopback servers); a secret file never does.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { useConfig } from './hostWaits';

const dirName = 'attach-fixture';
const sampleLines = Array.from(
	{ length: 14 },
	(_, i) => `export const line${i + 1} = 'sample line ${i + 1}';`,
);
const secret = 'zz-secret-INHOST-attach-4242';

describe('Attachments from the editor (in VS Code, loopback servers)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let configDir: string;
	let root: string;
	let diagnostics: vscode.DiagnosticCollection;
	const sample = () => vscode.Uri.file(join(root, dirName, 'sample.ts'));

	/** Every server's first request after `seen` (the request counts before the run). */
	const firstRequests = (seen: Record<string, number>) =>
		Object.entries(team.servers).map(([protocol, server]) => {
			const first = server.firstModelRequest(seen[protocol] ?? 0);
			assert.ok(first, `${protocol}: a request`);
			return { protocol, text: first.prompt.texts.join('\n') };
		});
	const requestCounts = () =>
		Object.fromEntries(Object.entries(team.servers).map(([protocol, s]) => [protocol, s.requests.length]));

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		const folder = vscode.workspace.workspaceFolders?.[0];
		assert.ok(folder, 'the test window has a workspace folder');
		root = folder.uri.fsPath;
		mkdirSync(join(root, dirName), { recursive: true });
		writeFileSync(join(root, dirName, 'sample.ts'), `${sampleLines.join('\n')}\n`);
		writeFileSync(join(root, dirName, '.env'), `API_TOKEN=${secret}\n`);
		team = await startLoopbackTeam();
		configDir = mkdtempSync(join(tmpdir(), 'massgen-attach-'));
		writeFileSync(join(configDir, 'team.yaml'), team.configYaml());
		await useConfig(join(configDir, 'team.yaml'));
		diagnostics = vscode.languages.createDiagnosticCollection('massgen-attachments-test');
	});

	afterEach(async () => {
		diagnostics.clear();
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	after(async () => {
		diagnostics?.dispose();
		await useConfig(undefined);
		await team?.close();
		rmSync(configDir, { recursive: true, force: true });
		rmSync(join(root, dirName), { recursive: true, force: true });
	});

	it('Ask Team attaches the active file and its selection as a line range', async () => {
		const editor = await vscode.window.showTextDocument(sample());
		editor.selection = new vscode.Selection(2, 0, 8, 5);
		const seen = requestCounts();
		const run = await vscode.commands.executeCommand<FinishedRun | undefined>(commandIds.askTeam, {
			question: 'What do these lines export?',
		});
		assert.ok(run, 'the run finished');
		assert.equal(run.result.status, 'completed', run.result.error);
		const selected = sampleLines.slice(2, 9).join('\n');
		for (const { protocol, text } of firstRequests(seen)) {
			assert.ok(
				text.includes(`<attachment kind="file" source="${dirName}/sample.ts" lines="3-9">\n${selected}\n`),
				`${protocol}: the selected lines attached`,
			);
			assert.ok(!text.includes(sampleLines[9]!), `${protocol}: only the selection is attached`);
		}
		assert.deepEqual(
			api.lastState()?.attachments?.map((a) => [a.kind, a.source, a.lines]),
			[['file', `${dirName}/sample.ts`, { start: 3, end: 9 }]],
		);
	});

	it('offers "Ask MassGen team to fix" on a diagnostic; its run gets the diagnostic and the lines around it', async () => {
		const message = 'Unique diagnostic for the attachments test: line5 is never read';
		const diagnostic = new vscode.Diagnostic(
			new vscode.Range(4, 13, 4, 18),
			message,
			vscode.DiagnosticSeverity.Warning,
		);
		diagnostic.source = 'lint';
		diagnostic.code = 'no-unused';
		diagnostics.set(sample(), [diagnostic]);
		// The diagnostics reach the editor's marker service asynchronously: ask until the fix is offered.
		let fix: vscode.CodeAction | undefined;
		for (let attempt = 0; attempt < 200 && !fix; attempt++) {
			const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
				'vscode.executeCodeActionProvider',
				sample(),
				new vscode.Range(4, 13, 4, 18),
				vscode.CodeActionKind.QuickFix.value,
			);
			fix = actions.find((action) => action.title === 'Ask MassGen team to fix');
			if (!fix) await new Promise((resolve) => setTimeout(resolve, 25));
		}
		assert.ok(fix?.command, 'the quick fix has a command');
		assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);
		const seen = requestCounts();
		const run = await vscode.commands.executeCommand<FinishedRun | undefined>(
			fix.command.command,
			...(fix.command.arguments ?? []),
		);
		assert.ok(run, 'the run finished');
		assert.equal(run.result.status, 'completed', run.result.error);
		assert.equal(run.request.question, `Fix: ${message}`);
		for (const { protocol, text } of firstRequests(seen)) {
			assert.ok(text.includes(`Fix: ${message}`), `${protocol}: the question`);
			assert.match(text, /<attachment kind="diagnostics" source="attach-fixture\/sample\.ts">/);
			assert.ok(text.includes(message) && text.includes('lint(no-unused)'), `${protocol}: the diagnostic`);
			assert.ok(
				text.includes(
					`<attachment kind="file" source="${dirName}/sample.ts" lines="1-14">\n${sampleLines.join('\n')}\n</attachment>`,
				),
				`${protocol}: the lines around it`,
			);
		}
	});

	it('a secret file as the active editor is refused: no run starts and its text reaches no server', async () => {
		await vscode.window.showTextDocument(vscode.Uri.file(join(root, dirName, '.env')));
		const runsDir = join(root, '.massgen', 'runs');
		const runsBefore = existsSync(runsDir) ? readdirSync(runsDir).length : 0;
		const seen = requestCounts();
		const run = await vscode.commands.executeCommand<FinishedRun | undefined>(commandIds.askTeam, {
			question: 'What is in this file?',
		});
		assert.equal(run, undefined, 'no run');
		assert.equal(api.runs.isRunning, false);
		assert.deepEqual(requestCounts(), seen, 'no request reached a server');
		assert.equal(existsSync(runsDir) ? readdirSync(runsDir).length : 0, runsBefore, 'no run directory');
		for (const server of Object.values(team.servers)) {
			assert.ok(!server.requests.some((r) => r.prompt.texts.join('\n').includes(secret)), 'the secret');
		}
		// Without the file, the same question runs.
		const without = await vscode.commands.executeCommand<FinishedRun | undefined>(commandIds.askTeam, {
			question: 'What is in this file?',
			attachEditor: false,
		});
		assert.equal(without?.result.status, 'completed');
		for (const server of Object.values(team.servers)) {
			assert.ok(!server.requests.some((r) => r.prompt.texts.join('\n').includes(secret)), 'the secret');
		}
	});
});
