/**
 * The panel's replay of a past run (`readShownRunEvents`): a log that came with the folder is read
 * only to `replayLimits.foreignBytes`, cut at a whole line; a run this machine made is read whole.
 * The panel folds every event it gets into its state (about a millisecond per planted voter), so
 * an uncapped planted log of thousands of voters held the extension host for a minute.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDirOf, runFile } from '../../../src/contract/runLayout.js';
import { recordOwnRun } from '../../../src/core/runStore/ownRuns.js';
import { readShownRunEvents, replayLimits } from '../../../src/core/runStore/readRunEvents.js';
import { makeTree, makeWorkspaceDir } from '../../support/tempTree.js';

const runId = '20261201-100000-abcd';

/** A run-start and `voters` votes, each from another voter: ~140 bytes a line. */
function plantedLog(ws: string, voters: number): number {
	const lines = [
		{
			type: 'run-start',
			runId,
			seq: 1,
			t: 0,
			question: 'q',
			workspace: ws,
			agents: [{ agentId: 'a', anonId: 'agent1', provider: 'openai', model: 'm' }],
		},
		...Array.from({ length: voters }, (_, i) => ({
			type: 'vote',
			runId,
			seq: i + 2,
			t: i + 1,
			agentId: `voter${i}`,
			voter: `voter${i}`,
			votedFor: 'agent1.1',
			votedForAgent: 'a',
			reason: 'r',
		})),
	].map((event) => JSON.stringify(event));
	const dir = runDirOf(ws, runId);
	mkdirSync(dir, { recursive: true });
	const text = `${lines.join('\n')}\n`;
	writeFileSync(runFile(dir, 'events'), text);
	return Buffer.byteLength(text);
}

describe('replaying a past run in the panel', () => {
	it('reads a log that came with the folder only to the small cap, cut at a whole line', async () => {
		const ws = makeWorkspaceDir();
		const env = { XDG_STATE_HOME: await makeTree() };
		const size = plantedLog(ws, 5000);
		expect(size).toBeGreaterThan(4 * replayLimits.foreignBytes);
		const events = await readShownRunEvents(ws, runId, env);
		expect(events[0]!.type).toBe('run-start');
		// Every event read is whole and in order; none from beyond the cap.
		expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
		const bytesRead = events.reduce((sum, event) => sum + JSON.stringify(event).length + 1, 0);
		expect(bytesRead).toBeLessThanOrEqual(replayLimits.foreignBytes);
		expect(bytesRead).toBeGreaterThan(replayLimits.foreignBytes - 200);
	});

	it('control: the same log of a run this machine made is read whole', async () => {
		const ws = makeWorkspaceDir();
		const env = { XDG_STATE_HOME: await makeTree() };
		await recordOwnRun(ws, runId, env);
		plantedLog(ws, 5000);
		const events = await readShownRunEvents(ws, runId, env);
		expect(events).toHaveLength(5001);
	});
});
