// In-host: an Accept that takes a runner-up's hunk records it in the run's changes log (the
// accept entry's runnerUpHunks: the file and the agents whose answer made it), which the stats
// count for that agent (docs/stats.md). Scripted team of test/fixtures/changes/runner-up-team.yaml.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { readChangeLog } from '../../src/core/runStore/changeLog';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { ChangeHarness } from '../fixtures/changes/changeHarness';
import { appPath, appWith } from '../fixtures/changes/files';

/** Each agent's own change to app.ts (runner-up-team.yaml). */
const changeOf = { alpha: 'docComment', beta: 'subComment', gamma: 'mulComment' } as const;

describe('Accepting a runner-up hunk (in VS Code, scripted team)', function () {
	this.timeout(60_000);
	let h: ChangeHarness;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		h = new ChangeHarness(
			await extension.activate(),
			join(extension.extensionPath, 'test', 'fixtures', 'changes', 'runner-up-team.yaml'),
		);
		await h.keepBuffersDirty();
	});

	beforeEach(async () => {
		await h.reset();
	});

	afterEach(async () => {
		await h.rejectPending();
		await h.reset();
	});

	after(async () => {
		await h.cleanUp();
	});

	it('the accept entry names the runner-up hunk taken and the agent that made it; the file gets both changes', async () => {
		const { run, view } = await h.runTeam();
		const runId = run.result.runId;
		const winner = run.result.winner!.agentId as keyof typeof changeOf;
		const file = view.files.find((candidate) => candidate.path === appPath)!;
		// The two other agents' changes are offered as runner-up hunks, one agent each.
		assert.deepEqual(
			file.alternatives.map((alt) => alt.agents).sort(),
			(Object.keys(changeOf) as (keyof typeof changeOf)[])
				.filter((agent) => agent !== winner)
				.map((agent) => [agent]),
		);
		const taken = file.alternatives[0]!;
		const from = taken.agents[0] as keyof typeof changeOf;
		h.changes.selectHunks(runId, appPath, [taken.id], true);
		await h.changes.accept({ runId });
		assert.equal(readFileSync(h.abs(appPath), 'utf8'), appWith(changeOf[winner], changeOf[from]));

		const accepts = (await readChangeLog(run.runDir)).filter((entry) => entry.kind === 'accept');
		assert.equal(accepts.length, 1);
		assert.deepEqual(accepts[0]!.runnerUpHunks, [{ path: appPath, from: [from] }]);
		assert.equal(accepts[0]!.editedPaths, undefined);
		// A runner-up's hunk makes the accept partial: the proposal was not taken as it was.
		assert.equal(accepts[0]!.partial, true);
	});
});
