// In-host (docs/protocol.md rule 16): a checklist team run through the extension's run controller
// and engine bundle, the four official SDKs against loopback servers: every agent's scoring request
// lists the criteria, the run's result and the state the panel folds hold the checklist and every
// vote's scores (the panel draws its table from that state: test/integration/webview/checklistScores.test.ts).
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { endRunAndConfig, useConfig } from './hostWaits';

describe('Checklist evaluation in the editor (in VS Code)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let configDir: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		team = await startLoopbackTeam();
		configDir = mkdtempSync(join(tmpdir(), 'massgen-checklist-'));
	});

	after(async () => {
		for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
		await endRunAndConfig(api);
		await team.close();
		rmSync(configDir, { recursive: true, force: true });
	});

	it('every vote carries scores for every answer and criterion; the panel state holds them', async () => {
		const config = join(configDir, 'team.yaml');
		writeFileSync(
			config,
			team.configYaml({
				orchestrator: {
					voting_sensitivity: 'checklist_gated',
					coordination: {
						checklist_criteria_inline: [
							{ text: 'Answers the question asked', category: 'primary' },
							{ text: 'Is short' },
						],
					},
				},
			}),
		);
		await useConfig(config);
		const before = Object.fromEntries(Object.entries(team.servers).map(([k, s]) => [k, s.requests.length]));
		const run = await api.runs.start({ question: 'What is 2 + 2?', kind: 'ask' });
		assert.ok(run, 'the run started');
		assert.equal(run.result.status, 'completed', run.result.error);
		for (const [protocol, server] of Object.entries(team.servers)) {
			const scoring = server.requests
				.slice(before[protocol])
				.filter(
					(r) =>
						r.prompt.tools.some((t) => t.name === 'vote') &&
						r.prompt.texts.join('\n').includes('<answer id="agent'),
				);
			assert.ok(scoring.length > 0, `${protocol}: a scoring request`);
			for (const request of scoring) {
				const text = request.prompt.texts.join('\n');
				assert.match(text, /- C1 \[primary\]: Answers the question asked/, protocol);
				assert.match(text, /- C2 \[standard\]: Is short/, protocol);
			}
		}
		assert.deepEqual(
			run.result.checklist?.criteria.map((c) => c.id),
			['C1', 'C2'],
		);
		assert.equal(run.result.votes.length, 4);
		const labels = run.result.answers.map((a) => a.label).sort();
		for (const vote of run.result.votes) {
			assert.deepEqual(vote.scores?.map((s) => s.label).sort(), labels, vote.voter);
			for (const entry of vote.scores ?? []) {
				assert.deepEqual(
					entry.criteria.map((c) => c.id),
					['C1', 'C2'],
				);
			}
		}
		const state = api.lastState();
		assert.equal(state?.checklist?.threshold, 7);
		assert.deepEqual(
			state?.checklist?.criteria.map((c) => c.text),
			['Answers the question asked', 'Is short'],
		);
		const folded = Object.values(state?.votes ?? {});
		assert.equal(folded.length, 4);
		assert.ok(folded.every((vote) => vote.scores?.length === labels.length));
	});
});
