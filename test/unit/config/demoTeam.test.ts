import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReviewChangeSet } from '../../../src/core/changes/changeSet.js';
import { loadConfigFile } from '../../../src/core/config/loadConfig.js';
import type { MassGenConfig } from '../../../src/core/config/schema.js';
import { toBackendSettings } from '../../../src/core/config/toSettings.js';
import { Orchestrator } from '../../../src/core/orchestrator/orchestrator.js';
import { scriptSchema } from '../../../src/core/providers/spec/scriptedSchema.js';
import { createScriptedModel } from '../../../src/core/providers/vendors/scripted.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { ManualClock } from '../../support/manualClock.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';

const demoFile = join(__dirname, '..', '..', '..', 'configs', 'demo.yaml');

async function demo(): Promise<MassGenConfig> {
	const { config, issues } = await loadConfigFile(demoFile);
	expect(issues).toEqual([]);
	return config!;
}

/** The shipped demo team on the orchestrator, on a manual clock (its latencies are the script's). */
async function runDemo(question: string) {
	const config = await demo();
	const clock = new ManualClock();
	const orchestrator = new Orchestrator({
		question,
		workspace: await createWorkspace(makeWorkspaceDir({ 'README.md': '# project\n' })),
		agents: config.agents.map((agent) => ({
			id: agent.id,
			model: createScriptedModel(toBackendSettings(agent)),
		})),
		anonymousOrder: 'config',
		clock,
	});
	await clock.drive(
		(async () => {
			for await (const event of orchestrator.run()) void event;
		})(),
	);
	return { result: orchestrator.result!, ms: clock.now() };
}

describe('the shipped demo team (configs/demo.yaml)', () => {
	it('makes its edit in each answer, not only in the presentation', async () => {
		const config = await demo();
		const scripts = config.agents.map((agent) =>
			scriptSchema.parse((toBackendSettings(agent).options as { script: unknown }).script),
		);
		expect(scripts).toHaveLength(3);
		const contents = scripts.map((script) => {
			const answering = script.coordination.find((step) => step.answer !== undefined)!;
			expect(answering.edits?.map((edit) => edit.path)).toEqual(['CONTRIBUTING.md']);
			// The presenter starts from its answer's files: a presentation edit would only repeat it.
			expect(script.presentation.edits ?? []).toEqual([]);
			return answering.edits![0]!.content;
		});
		expect(new Set(contents).size).toBe(1);
		expect(contents[0]).toContain('npm test');
	});

	it('runs to a winner whose one change every answer made: 3 of 3 agree', async () => {
		const { result, ms } = await runDemo('How should we document this project?');
		expect(result.status).toBe('completed');
		expect(result.votes).toHaveLength(3);
		expect(result.changes.map((change) => [change.path, change.kind])).toEqual([['CONTRIBUTING.md', 'add']]);
		// Every answer carries the edit…
		expect(
			(result.answerChanges ?? [])
				.map((answer) => [answer.agentId, answer.changes.map((c) => c.path)])
				.sort(),
		).toEqual([
			['planner', ['CONTRIBUTING.md']],
			['reviewer', ['CONTRIBUTING.md']],
			['skeptic', ['CONTRIBUTING.md']],
		]);
		// …so the review marks the winner's change as made by all three.
		const set = buildReviewChangeSet({
			runId: result.runId,
			winner: result.winner,
			changes: result.changes,
			answers: result.answerChanges,
		});
		expect(set.agentCount).toBe(3);
		const [file] = set.files;
		expect(file!.hunks).toHaveLength(1);
		expect(file!.hunks[0]!.agreeing.length + 1).toBe(set.agentCount);
		expect(file!.alternatives).toEqual([]);
		// Quick: two calls per answer at the script's latencies, one vote round, one presentation.
		expect(ms).toBeLessThan(5_000);
	});
});
