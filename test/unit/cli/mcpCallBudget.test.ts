/**
 * `massgen mcp`'s budget per call (`callBudget`): the editor's `massgen.maxCostUsd`,
 * `massgen.maxTokens` and `massgen.maxCostUsdPerDay` reach the agent mode's server as flags, so an
 * agent calling ask_team again and again is held to them. Real run folders and `spentOnDay`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newRunId } from '../../../src/contract/runId.js';
import { runDirOf } from '../../../src/contract/runLayout.js';
import { parseCliArgs } from '../../../src/cli/args.js';
import { callBudget } from '../../../src/cli/mcp/callBudget.js';
import { recordOwnRun } from '../../../src/core/runStore/ownRuns.js';
import { makeTree } from '../../support/tempTree.js';

const now = new Date(2026, 11, 3, 15, 0, 0);

/** A run started today in `root` whose result says it spent `usd`; `own`: made on this machine. */
async function spent(root: string, env: NodeJS.ProcessEnv, usd: number, own = true): Promise<void> {
	const id = newRunId(new Date(2026, 11, 3, 9, 0, 0), Math.random);
	if (own) await recordOwnRun(root, id, env);
	await mkdir(runDirOf(root, id), { recursive: true });
	const usage = [{ agentId: 'a', costUsd: usd }];
	await writeFile(join(runDirOf(root, id), 'result.json'), JSON.stringify({ runId: id, usage, changes: [] }));
}

async function setup() {
	const root = await makeTree({ 'README.md': 'hi\n' });
	const state = await makeTree();
	return { root, env: { XDG_STATE_HOME: state } as NodeJS.ProcessEnv };
}

describe('massgen mcp budget flags', () => {
	it('parses --max-cost, --max-tokens and --max-cost-per-day; the day cap is an option of mcp only', () => {
		expect(
			parseCliArgs(['mcp', '--max-cost', '0.5', '--max-tokens', '9000', '--max-cost-per-day', '3'], '/w'),
		).toEqual({ kind: 'mcp', workspace: '/w', maxCostUsd: 0.5, maxTokens: 9000, maxCostUsdPerDay: 3 });
		expect(() => parseCliArgs(['mcp', '--max-cost-per-day=0'], '/w')).toThrow(/positive USD amount/);
		expect(() => parseCliArgs(['run', '--max-cost-per-day', '1', 'q'], '/w')).toThrow(/an option of mcp/);
	});
});

describe('callBudget', () => {
	it('passes --max-cost and --max-tokens as the call’s caps', async () => {
		const { root, env } = await setup();
		expect(await callBudget({ workspace: root, maxCostUsd: 0.5, maxTokens: 900 }, env, now)).toEqual({
			budget: {
				maxCostUsd: { limit: 0.5, source: '--max-cost' },
				maxTokens: { limit: 900, source: '--max-tokens' },
			},
		});
	});

	it('refuses a call once today’s runs of this machine spent the day, whatever a cloned run says', async () => {
		const { root, env } = await setup();
		await spent(root, env, 1.5);
		await spent(root, env, 100, false);
		expect(await callBudget({ workspace: root, maxCostUsdPerDay: 2 }, env, now)).toEqual({
			budget: { maxCostUsd: { limit: 0.5, source: '--max-cost-per-day' } },
		});
		await spent(root, env, 0.5);
		expect(await callBudget({ workspace: root, maxCostUsd: 5, maxCostUsdPerDay: 2 }, env, now)).toMatchObject(
			{
				refused: 'budget',
				message: expect.stringMatching(/spent \$2\.00 of the day's \$2\.00 \(--max-cost-per-day\)/),
			},
		);
	});

	it('keeps --max-cost when it fits in what is left of the day', async () => {
		const { root, env } = await setup();
		await spent(root, env, 1);
		expect(await callBudget({ workspace: root, maxCostUsd: 0.25, maxCostUsdPerDay: 2 }, env, now)).toEqual({
			budget: { maxCostUsd: { limit: 0.25, source: '--max-cost' } },
		});
	});
});
