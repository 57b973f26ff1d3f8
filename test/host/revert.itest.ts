// In-host: Revert Run (docs/sessions.md) in the real extension host: Accept records what it wrote, the user
// edits a file afterwards, "MassGen: Revert Run" takes the team's changes out as one undoable
// WorkspaceEdit and keeps the user's edit; one undo brings the accepted text back.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { ChangeLogEntry } from '../../src/core/runStore/changeLog';
import { builtinSecretPaths } from '../../src/core/workspace/secretPaths';
import { revertAccepted, type RevertOutcome } from '../../src/vscode/changes/revertAccepted';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { endRunAndConfig, until, useConfig, workspaceRoot } from './hostWaits';

const settingsPath = 'revert-demo/settings.ts';
const addedPath = 'revert-demo/added.md';
const oldPath = 'revert-demo/old.md';
const settingsBase = [
	"export const apiKey = 'sk-ant-api03-REVERTTESTxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx';",
	'export const retries = 3;',
	'export const timeoutMs = 1000;',
	'export const verbose = false;',
	"export const name = 'demo';",
	'',
].join('\n');
const settingsTeam = settingsBase.replace('timeoutMs = 1000;', 'timeoutMs = 5000; // the team');
const oldBase = '# Old notes\n';

describe('Revert Run (in VS Code, scripted team)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let root: string;
	const uri = (path: string) =>
		vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, ...path.split('/'));
	const disk = (path: string) =>
		existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : null;
	const openDoc = (path: string) =>
		vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === uri(path).toString());

	const writeBase = async () => {
		await vscode.workspace.fs.writeFile(uri(settingsPath), Buffer.from(settingsBase, 'utf8'));
		await vscode.workspace.fs.writeFile(uri(oldPath), Buffer.from(oldBase, 'utf8'));
		await vscode.workspace.fs.delete(uri(addedPath)).then(undefined, () => undefined);
		// An open document follows the disk asynchronously: accept edits the buffer, so it must have reloaded.
		await until('settings.ts to be reloaded', () => {
			const doc = openDoc(settingsPath);
			return !doc || doc.getText() === settingsBase;
		});
	};
	const acceptRun = async () => {
		const run = await api.runs.start({ question: 'Tidy the settings', kind: 'ask' });
		assert.ok(run, 'the run started');
		assert.equal(run.result.status, 'completed', run.result.error);
		await until(
			'the change set in the review',
			() => api.changes.changeSet(run.result.runId)?.runId === run.result.runId,
		);
		await api.changes.accept({ runId: run.result.runId });
		assert.equal(disk(settingsPath), settingsTeam);
		return run;
	};
	const kindsIn = (runDir: string) =>
		readFileSync(join(runDir, 'changes-log.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as ChangeLogEntry)
			.map((entry) => (entry.kind === 'revert' ? `revert:${entry.mode}` : entry.kind));

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		root = workspaceRoot();
		// code-server saves dirty buffers after a delay by default; the user's edit must stay unsaved.
		await vscode.workspace
			.getConfiguration('files')
			.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
		await useConfig(join(extension.extensionPath, 'test', 'fixtures', 'changes', 'revert-team.yaml'));
	});

	afterEach(async () => {
		for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
		for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) {
			await vscode.window.showTextDocument(doc);
			await vscode.commands.executeCommand('workbench.action.files.revert');
		}
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	after(async () => {
		await vscode.workspace.fs
			.delete(uri('revert-demo'), { recursive: true, useTrash: false })
			.then(undefined, () => undefined);
		await endRunAndConfig(api);
		await vscode.workspace
			.getConfiguration('files')
			.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
	});

	it("accept records byte-exact texts; Revert Run undoes the team's changes around the user's unsaved edit; one undo re-applies them", async () => {
		await writeBase();
		const run = await acceptRun();
		assert.deepEqual(
			[disk(settingsPath), disk(addedPath), disk(oldPath)],
			[settingsTeam, '# Added by the team\n', null],
		);

		const logPath = join(run.runDir, 'changes-log.jsonl');
		assert.equal(statSync(logPath).mode & 0o777, 0o600, 'only the owner reads the record');
		const [accept] = readFileSync(logPath, 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as ChangeLogEntry);
		assert.ok(accept?.kind === 'accept');
		assert.equal(accept.by, 'editor');
		const byPath = Object.fromEntries(accept.files.map((file) => [file.path, [file.before, file.after]]));
		assert.deepEqual(byPath, {
			[settingsPath]: [settingsBase, settingsTeam],
			[addedPath]: [null, '# Added by the team\n'],
			[oldPath]: [oldBase, null],
		});

		// The user's later edit, on another line, in an open buffer left unsaved.
		const doc = await vscode.workspace.openTextDocument(uri(settingsPath));
		const edit = new vscode.WorkspaceEdit();
		edit.replace(doc.uri, doc.lineAt(4).range, "export const name = 'mine';");
		assert.ok(await vscode.workspace.applyEdit(edit));
		const mineAccepted = settingsTeam.replace("'demo'", "'mine'");
		assert.equal(doc.getText(), mineAccepted);

		const outcome = (await vscode.commands.executeCommand(
			commandIds.revertRun,
			run.result.runId,
		)) as RevertOutcome;
		assert.equal(outcome.status, 'reverted', JSON.stringify(outcome));
		assert.equal(outcome.mode, 'revert');
		assert.deepEqual(outcome.merged, [settingsPath]);
		assert.equal(
			doc.getText(),
			settingsBase.replace("'demo'", "'mine'"),
			"the team's hunk is gone, the user's kept",
		);
		assert.equal(doc.isDirty, true, 'a dirty buffer is edited, never saved');
		assert.equal(disk(settingsPath), settingsTeam, 'the disk keeps what the user had saved');
		assert.equal(disk(addedPath), null, 'the created file is deleted');
		assert.equal(disk(oldPath), oldBase, 'the deleted file is back');
		const kinds = readFileSync(logPath, 'utf8')
			.trim()
			.split('\n')
			.map((line) => (JSON.parse(line) as ChangeLogEntry).kind);
		assert.deepEqual(kinds, ['accept', 'revert']);

		// One undo, from the edited file, undoes the whole revert (it is one undo group).
		await vscode.window.showTextDocument(doc);
		await vscode.commands.executeCommand('undo');
		await until('the undo to bring the accepted text back', () => doc.getText() === mineAccepted);
		await until('the undo to recreate the added file', () => disk(addedPath) === '# Added by the team\n');
		await until('the undo to delete old.md again', () => disk(oldPath) === null);
		assert.equal(openDoc(settingsPath)?.isDirty, true);
	});

	it('a run folder this machine did not make (a copy of a real run under another id) is not reverted; the run itself is', async () => {
		await writeBase();
		const run = await acceptRun();
		const planted = '20991231-235959-zzzz';
		const plantedDir = join(run.runDir, '..', planted);
		cpSync(run.runDir, plantedDir, { recursive: true });
		const resultFile = join(plantedDir, 'result.json');
		writeFileSync(resultFile, readFileSync(resultFile, 'utf8').replaceAll(run.result.runId, planted));
		const before = [disk(settingsPath), disk(addedPath), disk(oldPath)];
		try {
			const refused = await vscode.commands.executeCommand(commandIds.revertRun, planted);
			assert.equal(refused, undefined, 'refused');
			assert.deepEqual([disk(settingsPath), disk(addedPath), disk(oldPath)], before, 'nothing written');
			assert.equal(openDoc(settingsPath)?.isDirty ?? false, false, 'no buffer edited');
			assert.deepEqual(kindsIn(plantedDir), ['accept'], 'nothing recorded in the planted log');
			// Control: the run the editor made reverts.
			const outcome = (await vscode.commands.executeCommand(
				commandIds.revertRun,
				run.result.runId,
			)) as RevertOutcome;
			assert.equal(outcome.status, 'reverted', JSON.stringify(outcome));
		} finally {
			rmSync(plantedDir, { recursive: true, force: true });
		}
	});

	it("an edit overlapping the team's hunk: cancel writes nothing; Resolve in Editor marks it unsaved and reverts the rest; Revert Run again re-applies", async () => {
		await writeBase();
		const run = await acceptRun();
		const doc = await vscode.workspace.openTextDocument(uri(settingsPath));
		const edit = new vscode.WorkspaceEdit();
		edit.replace(doc.uri, doc.lineAt(2).range, 'export const timeoutMs = 2000; // mine');
		assert.ok(await vscode.workspace.applyEdit(edit));
		const mine = doc.getText();
		const input = {
			runId: run.result.runId,
			name: '“Tidy the settings”',
			runDir: run.runDir,
			folder: vscode.workspace.workspaceFolders![0]!.uri,
			policy: { root: realpathSync(root), protectedPaths: [], secretPaths: builtinSecretPaths },
		};
		const asked: string[] = [];
		const cancelled = await revertAccepted({
			...input,
			prompts: {
				conflicts: async (files) => {
					asked.push(...files.map((file) => `${file.path}: ${file.reason}`));
					return undefined;
				},
			},
		});
		assert.equal(cancelled.status, 'cancelled');
		assert.deepEqual(asked, [`${settingsPath}: overlap`]);
		assert.equal(doc.getText(), mine, 'nothing written on cancel');
		assert.deepEqual(
			[disk(settingsPath), disk(addedPath), disk(oldPath)],
			[settingsTeam, '# Added by the team\n', null],
		);
		assert.deepEqual(kindsIn(run.runDir), ['accept']);

		const resolved = await revertAccepted({ ...input, prompts: { conflicts: async () => 'resolve' } });
		assert.equal(resolved.status, 'reverted', JSON.stringify(resolved));
		assert.deepEqual(resolved.marked, [settingsPath]);
		assert.match(
			doc.getText(),
			/<<<<<<< Current \(your edits\)\nexport const timeoutMs = 2000; \/\/ mine\n=======\nexport const timeoutMs = 1000;\n>>>>>>> Revert of MassGen run /,
		);
		assert.equal(doc.isDirty, true, 'conflict markers stay unsaved');
		assert.deepEqual([disk(addedPath), disk(oldPath)], [null, oldBase]);

		const again = (await vscode.commands.executeCommand(
			commandIds.revertRun,
			run.result.runId,
		)) as RevertOutcome;
		assert.equal(again.status, 'reverted', JSON.stringify(again));
		assert.equal(again.mode, 'reapply');
		assert.equal(doc.getText(), mine, "re-applied: the text before the revert, the user's edit in it");
		assert.deepEqual([disk(addedPath), disk(oldPath)], ['# Added by the team\n', null]);
		assert.deepEqual(kindsIn(run.runDir), ['accept', 'revert:revert', 'revert:reapply']);
	});
	it("a path the run's own config names secret is never written by Revert Run, though its record has it", async () => {
		await writeBase();
		const run = await acceptRun();
		// The record stands (the accept wrote it); the run's config.yaml now names the file secret,
		// as a project's config does for a file only it knows (the setting and built-ins do not).
		const configFile = join(run.runDir, 'config.yaml');
		const recorded = readFileSync(configFile, 'utf8');
		assert.match(recorded, /^  secret_paths: \[\]$/m);
		writeFileSync(
			configFile,
			recorded.replace(/^  secret_paths: \[\]$/m, `  secret_paths: ['${settingsPath}']`),
		);
		const outcome = (await vscode.commands.executeCommand(
			commandIds.revertRun,
			run.result.runId,
		)) as RevertOutcome;
		assert.equal(outcome.status, 'unsafe', JSON.stringify(outcome));
		assert.deepEqual(
			[disk(settingsPath), disk(addedPath), disk(oldPath)],
			[settingsTeam, '# Added by the team\n', null],
			'nothing written',
		);
		assert.deepEqual(kindsIn(run.runDir), ['accept']);
	});
});
