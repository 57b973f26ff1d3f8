// In-host: the user's edit of the proposed side reaches the team on the next follow-up (Send to
// Team), with the lines they wrote (docs/changes.md). A loopback team (real SDKs against the
// loopback servers) proposes a change; the user types a line into the proposed side and saves,
// comments on another line and sends it back; the follow-up's requests, as the servers recorded
// them, carry the user's lines as theirs.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { commandIds } from '../../src/vscode/common/commandIds';
import { changeUri } from '../../src/vscode/changes/changeUri';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import type { PromptView } from '../servers/types';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { endRunAndConfig, rejectPendingChanges, runTeam, until, useConfig, workspaceRoot } from './hostWaits';

const greet = 'proposal-edit-loop/greet.ts';
const lines = (...all: string[]) => all.map((line) => `${line}\n`).join('');
const greetBase = lines(
	'// Greetings',
	'export function hello(name: string) {',
	"\treturn 'Hello ' + name;",
	'}',
);
const greetProposed = greetBase.replace("\treturn 'Hello ' + name;", '\treturn `Hello, ${name}!`;');
const mine = greetProposed.replace('// Greetings', '// Greetings, checked by the user');
const reviewing = (prompt: PromptView) =>
	[prompt.system, ...prompt.texts].join('\n').includes('REVIEW COMMENTS');

describe('Editing the proposal: the next follow-up carries the edit (loopback team)', function () {
	this.timeout(120_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let dir: string;
	const root = () => workspaceRoot();

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		await rejectPendingChanges(api);
		team = await startLoopbackTeam({
			auto: {
				answer: (prompt) => (reviewing(prompt) ? 'Kept your line.\nAddresses: c1' : 'Use a template string.'),
				presentationWrites: (prompt) => [{ path: greet, content: reviewing(prompt) ? mine : greetProposed }],
			},
		});
		dir = mkdtempSync(join(tmpdir(), 'massgen-proposal-edit-'));
		writeFileSync(join(dir, 'team.yaml'), stringify({ agents: team.agents.slice(0, 2) }));
		await useConfig(join(dir, 'team.yaml'));
		await vscode.workspace.fs.writeFile(vscode.Uri.file(join(root(), greet)), Buffer.from(greetBase, 'utf8'));
	});

	after(async () => {
		await rejectPendingChanges(api);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		await endRunAndConfig(api);
		await vscode.workspace.fs
			.delete(vscode.Uri.file(join(root(), 'proposal-edit-loop')), { recursive: true, useTrash: false })
			.then(undefined, () => undefined);
		await team.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('typed into the proposed side and saved, then Send to Team: every agent is told the user wrote line 1; the disk stays the base', async () => {
		const { run: first } = await runTeam(api, 'Use a template string in the greeting');
		const parent = first.result.runId;
		await until('the proposal pending', () => api.changes.changeSet(parent) ?? undefined);
		const proposed = await vscode.workspace.openTextDocument(changeUri(parent, 'proposed', greet));
		assert.equal(proposed.getText(), greetProposed);
		const edit = new vscode.WorkspaceEdit();
		edit.replace(proposed.uri, proposed.lineAt(0).range, '// Greetings, checked by the user');
		assert.ok(await vscode.workspace.applyEdit(edit));
		assert.ok(await proposed.save());
		assert.equal(api.changes.changeSet(parent)!.files[0]!.edited, true);
		assert.deepEqual(api.changes.proposalFiles(parent), [
			{ path: greet, content: mine, userEdited: [{ line: 1, endLine: 1 }] },
		]);

		await vscode.commands.executeCommand<string>(commandIds.commentForTeam, {
			uri: proposed.uri,
			line: 3,
			endLine: 3,
			text: 'Keep the template string.',
		});
		const since = {
			responses: team.servers.responses.requests.length,
			anthropic: team.servers.anthropic.requests.length,
		};
		const revised = await vscode.commands.executeCommand<FinishedRun | undefined>(commandIds.sendToTeam, {
			runId: parent,
		});
		assert.ok(revised, 'the revision ran');
		assert.equal(revised.result.status, 'completed', JSON.stringify(revised.result.error ?? null));
		for (const protocol of ['responses', 'anthropic'] as const) {
			const request = team.servers[protocol].requests
				.slice(since[protocol])
				.find((candidate) => candidate.method === 'POST');
			assert.ok(request, `the ${protocol} agent was asked`);
			const text = [request.prompt.system, ...request.prompt.texts].join('\n');
			assert.match(
				text,
				/The user edited .*proposal-edit-loop\/greet\.ts.* themselves \(lines 1 of the proposal\)/,
			);
		}
		assert.equal(readFileSync(join(root(), greet), 'utf8'), greetBase, 'nothing written before Accept');
	});
});
