// In-host: the teams as models of VS Code's model picker (vendor `massgen`), through the public
// language model API an extension (or the Chat view) uses: `vscode.lm.selectChatModels` lists
// them, `LanguageModelChat.sendRequest` runs the team. code-server has no Copilot, so no other
// vendor's models exist here (docs/editor.md says what was seen in the Chat view itself).
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { startLoopbackProvider } from '../servers/loopbackProvider';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { endRunAndConfig, nextFinish, snapshotFiles, until, useConfig, workspaceRoot } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';
const { User, Assistant } = vscode.LanguageModelChatMessage;

/** Polls the picker's massgen models until one is named `name`. */
async function teamModel(name: string): Promise<vscode.LanguageModelChat> {
	const deadline = Date.now() + 20_000;
	let seen: string[] = [];
	for (;;) {
		const models = await vscode.lm.selectChatModels({ vendor: 'massgen' });
		const found = models.find((model) => model.name === name);
		if (found) return found;
		seen = models.map((model) => model.name);
		if (Date.now() > deadline) throw new Error(`no model '${name}' (listed: ${seen.join(', ')})`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** One agent on a chat server that holds its reply (`latency`): a run that waits until cancelled. */
function heldTeam(baseUrl: string): string {
	return [
		'agents:',
		'  - id: held_agent',
		'    backend:',
		'      type: chatcompletion',
		'      model: loopback-chat',
		`      base_url: ${baseUrl}`,
		'      api_key: loopback-key',
		'',
	].join('\n');
}

/** The response's text parts as they streamed, and whether the stream ended in an error. */
async function readResponse(
	response: vscode.LanguageModelChatResponse,
): Promise<{ text: string; error?: unknown }> {
	let text = '';
	try {
		for await (const part of response.stream) {
			if (part instanceof vscode.LanguageModelTextPart) text += part.value;
		}
		return { text };
	} catch (error) {
		return { text, error };
	}
}

describe('The team in the model picker (vendor massgen, LanguageModelChatProvider)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let fixtures: string;
	let configDir: string;
	const closers: (() => Promise<void>)[] = [];

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(extension);
		api = await extension.activate();
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
		configDir = mkdtempSync(join(tmpdir(), 'massgen-picker-'));
	});

	afterEach(async () => {
		await endRunAndConfig(api);
		for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
		await Promise.all(closers.splice(0).map((close) => close()));
	});

	after(() => rmSync(configDir, { recursive: true, force: true }));

	const teamFile = (name: string, yaml: string) => {
		const file = join(configDir, `${name}.yaml`);
		writeFileSync(file, yaml);
		return file;
	};
	const loopbackTeam = async (): Promise<LoopbackTeam> => {
		const team = await startLoopbackTeam({ auto: {} });
		closers.push(() => team.close());
		return team;
	};

	it('lists the team a run would use and the demo team, with honest capabilities', async () => {
		const team = await loopbackTeam();
		await useConfig(teamFile('pickers', team.configYaml()));
		const model = await teamModel('MassGen: pickers (4 agents)');
		assert.equal(model.vendor, 'massgen');
		assert.equal(model.family, 'massgen-team');
		assert.equal(model.id, 'team');
		const listed = (await vscode.lm.selectChatModels({ vendor: 'massgen' })).map((m) => m.name);
		assert.deepEqual(listed.sort(), ['MassGen: demo team (3 agents)', 'MassGen: pickers (4 agents)']);
		assert.equal(await model.countTokens('a'.repeat(400)), 100);
	});

	it('sendRequest runs the team on the conversation: every agent saw the history and the question; progress, answer, vote', async () => {
		const team = await loopbackTeam();
		await useConfig(teamFile('pickers', team.configYaml()));
		const model = await teamModel('MassGen: pickers (4 agents)');
		const before = snapshotFiles(workspaceRoot());
		const finished = nextFinish(api);
		const tokens = new vscode.CancellationTokenSource();
		const response = await model.sendRequest(
			[
				User('What does hello.ts export?'),
				Assistant('A greeting function.'),
				User('Which name does it greet by default?'),
			],
			{},
			tokens.token,
		);
		const { text, error } = await readResponse(response);
		assert.equal(error, undefined);
		const run = await finished;
		assert.equal(run.result.status, 'completed');
		assert.equal(run.request.question, 'Which name does it greet by default?');

		const escaped = (value: string) => JSON.stringify(value).slice(1, -1);
		for (const [name, server] of Object.entries(team.servers)) {
			const first = server.requests.find((request) => request.method === 'POST')?.rawBody ?? '';
			assert.ok(
				first.includes(escaped('<CONVERSATION_HISTORY>\nUser: What does hello.ts export?')),
				`${name} saw the history`,
			);
			assert.ok(first.includes(escaped('A greeting function.')), `${name} saw the earlier answer`);
			assert.ok(first.includes('Which name does it greet by default?'), `${name} saw the question`);
		}

		const winner = run.result.winner?.agentId;
		assert.ok(winner && run.result.finalAnswer);
		const progress = text.indexOf('4 agents are answering…');
		const voted = text.search(/\w+ voted for \w+…/);
		const answer = text.indexOf(run.result.finalAnswer);
		const vote = text.indexOf(`**Vote:** ${winner} won with 4 of 4 votes`);
		assert.ok(progress >= 0 && voted > progress && answer > voted && vote > answer, text);
		assert.deepEqual(snapshotFiles(workspaceRoot()), before);
		tokens.dispose();
	});

	it('proposed changes wait in the review, named in the response; nothing is written', async () => {
		await useConfig(join(fixtures, 'lm-tool-team.yaml'));
		const model = await teamModel('MassGen: lm-tool-team (2 agents)');
		const before = snapshotFiles(workspaceRoot());
		const finished = nextFinish(api);
		const response = await model.sendRequest([User('How should we document this project?')]);
		const { text, error } = await readResponse(response);
		assert.equal(error, undefined);
		const run = await finished;
		assert.match(
			text,
			/\*\*Proposed changes\*\* \(not applied; they wait for your review[^)]*\):\n- `add lm-tool\/GUIDE\.md`/,
		);
		const pending = api.changes.changeSet(run.result.runId);
		assert.equal(pending?.runId, run.result.runId);
		assert.deepEqual(
			pending?.files.map((file) => file.path),
			['lm-tool/GUIDE.md'],
		);
		assert.deepEqual(snapshotFiles(workspaceRoot()), before);
	});

	it('cancelling the request cancels the run (a server holds its reply until then)', async () => {
		const held = await startLoopbackProvider('chat', {
			auto: { name: 'held' },
			latency: () => ({ firstByteMs: 600_000, streamMs: 0 }),
		});
		closers.push(() => held.close());
		await useConfig(teamFile('held', heldTeam(held.baseUrl)));
		const model = await teamModel('MassGen: held (1 agent)');
		const before = snapshotFiles(workspaceRoot());
		const finished = nextFinish(api);
		const tokens = new vscode.CancellationTokenSource();
		const reading = model
			.sendRequest([User('Take your time.')], {}, tokens.token)
			.then(readResponse, (error: unknown) => ({ text: '', error }));
		// The Team view's listing may ask the server for its models (GET): the model call is the POST.
		const call = await until('the held server to get the model call', () =>
			held.requests.find((request) => request.method === 'POST'),
		);
		assert.equal(api.runs.isRunning, true);
		tokens.cancel();
		const run = await finished;
		assert.equal(run.result.status, 'cancelled');
		await call.settled;
		assert.equal(call.closedByClient, true, 'the model call was aborted');
		const { text } = await reading;
		assert.doesNotMatch(text, /\*\*Vote:\*\*/);
		assert.equal(api.runs.isRunning, false);
		assert.deepEqual(snapshotFiles(workspaceRoot()), before);
		tokens.dispose();
	});

	it('Cancel Run stops a picker request: the run ends cancelled, the response says so', async () => {
		// The way to stop a request on VS Code 1.106–1.126, where the caller's token never reaches
		// the provider (docs/editor.md); the smoke leg runs it there.
		const held = await startLoopbackProvider('chat', {
			auto: { name: 'held' },
			latency: () => ({ firstByteMs: 600_000, streamMs: 0 }),
		});
		closers.push(() => held.close());
		await useConfig(teamFile('held', heldTeam(held.baseUrl)));
		const model = await teamModel('MassGen: held (1 agent)');
		const before = snapshotFiles(workspaceRoot());
		const finished = nextFinish(api);
		const reading = model
			.sendRequest([User('Take your time.')])
			.then(readResponse, (error: unknown) => ({ text: '', error }));
		const call = await until('the held server to get the model call', () =>
			held.requests.find((request) => request.method === 'POST'),
		);
		await vscode.commands.executeCommand(commandIds.cancelRun);
		const run = await finished;
		assert.equal(run.result.status, 'cancelled');
		await call.settled;
		assert.equal(call.closedByClient, true, 'the model call was aborted');
		// The caller's token was not cancelled: the response ends by saying how the run ended.
		const { text, error } = await reading;
		assert.equal(error, undefined);
		assert.match(text, /The MassGen run was cancelled/);
		assert.equal(api.runs.isRunning, false);
		assert.deepEqual(snapshotFiles(workspaceRoot()), before);
	});

	it('a vscode_lm member never resolves to a MassGen team, though the picker lists them', async () => {
		const yaml = [
			'agents:',
			'  - id: nested',
			'    backend:',
			'      type: vscode_lm',
			'      model: massgen-team',
			'',
		].join('\n');
		await useConfig(teamFile('nested', yaml));
		// VS Code lists our models to anyone: by family 'massgen-team' they would match the member.
		const all = await vscode.lm.selectChatModels();
		assert.ok(all.some((m) => m.vendor === 'massgen' && m.family === 'massgen-team'));
		api.teamView.provider.refresh();
		const { snapshot } = await api.teamView.provider.snapshot();
		const row = snapshot?.agents.find((agent) => agent.id === 'nested');
		assert.equal(row?.willRun, false);
		assert.match(row?.reason ?? '', /no VS Code language model matches 'massgen-team'/);
		// The team does not run, so it is not a model; the demo team still is.
		const names = async () => (await vscode.lm.selectChatModels({ vendor: 'massgen' })).map((m) => m.name);
		const demoOnly = ['MassGen: demo team (3 agents)'];
		const deadline = Date.now() + 20_000;
		let listed = await names();
		while (listed.join() !== demoOnly.join() && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 50));
			listed = await names();
		}
		assert.deepEqual(listed, demoOnly);
		const refused = await api.runs.start({ question: 'Who answers?', kind: 'ask' });
		assert.equal(refused, undefined);
	});
});
