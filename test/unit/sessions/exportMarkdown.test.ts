import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';
import type { RunResult } from '../../../src/contract/runResult.js';
import { exportRunMarkdown, exportSessionMarkdown } from '../../../src/core/sessions/exportMarkdown.js';
import { Redactor } from '../../../src/core/secrets/redactor.js';

let ws: string;
beforeEach(async () => {
	ws = await mkdtemp(join(tmpdir(), 'massgen-export-'));
});
afterEach(async () => {
	await rm(ws, { recursive: true, force: true });
});

const A = '20250101-090000-aaaa';
const B = '20250101-091000-bbbb';

async function write(runId: string, result: Partial<RunResult>, patch = '', redactor?: Redactor) {
	const log = await RunLogWriter.create(ws, runId, redactor ? { redactor } : {});
	const full: RunResult = {
		runId,
		question: 'Fix the parser',
		status: 'completed',
		winner: { agentId: 'alice', label: 'agent1.1' },
		answers: [{ agentId: 'alice', label: 'agent1.1', content: 'Use a `Map` <here>.' }],
		votes: [{ voter: 'bob', votedFor: 'alice', votedForLabel: 'agent1.1', reason: 'a | b\nworks' }],
		finalAnswer: 'Done.',
		changes: [],
		usage: [{ agentId: 'alice', inputTokens: 100, outputTokens: 20, calls: 2, costUsd: 0.0012 }],
		durationMs: 2500,
		session: { id: runId, parentRunId: null },
		...result,
	};
	await log.finish({ result: full, configYaml: '', patch });
	await log.close();
}

describe('exportRunMarkdown', () => {
	it('keeps table cells on one line and fences a diff that itself holds backtick fences', async () => {
		const patch = '--- a/README.md\n+++ b/README.md\n@@ -1 +1,3 @@\n+```ts\n+code\n+```\n';
		await write(A, { attachments: [{ kind: 'file', source: 'src/p.ts', bytes: 2048, sha256: 'x' }] }, patch);
		const md = await exportRunMarkdown(ws, A);
		expect(md).toContain('| bob | alice (agent1.1) | a \\| b works |');
		expect(md).toContain(`\n\`\`\`\`diff\n${patch.trimEnd()}\n\`\`\`\`\n`);
		expect(md).toContain('- file src/p.ts (2.0 KiB)');
		expect(md).toContain('<summary><b>alice</b> — agent1.1 · winner</summary>\n\nUse a `Map` <here>.');
		expect(md).toContain('| alice |  | 2 | 100 | 0 | 20 | 0 | $0.0012 |');
	});

	it("says why coordination ended and lists the user's messages; malformed records read as none", async () => {
		await write(A, {
			coordination: {
				ended: 'quorum',
				quorum: { required: 3, votes: 3, label: 'agent2.1' },
				saved: { callsStopped: 2, agentsNotWaitedFor: ['d', 'e'], estimatedCostUsd: 0.004 },
			},
			steering: [
				{ id: 1, text: 'Use tabs.\nNo spaces.', noteOnly: false, t: 4 },
				{ id: 2, text: 'CI is slow.', targetAgentId: 'bob', noteOnly: true, t: 9 },
			],
		});
		const md = await exportRunMarkdown(ws, A);
		expect(md).toContain(
			'- **Coordination:** a quorum agreed (3 votes for agent2.1, 3 needed); saved: 2 calls stopped, not waited for d, e, about $0.0040\n',
		);
		expect(md).toContain(
			'## Your messages to the team\n\n- to the team: Use tabs. No spaces.\n- to bob (note): CI is slow.',
		);
		await write(B, { coordination: { ended: 'whatever' } as never, steering: [{ text: 7 }] as never });
		const planted = await exportRunMarkdown(ws, B);
		expect(planted).not.toContain('**Coordination:**');
		expect(planted).not.toContain('Your messages');
	});

	it('lists the checklist and each vote’s scores, marking those below the threshold; none without a checklist', async () => {
		await write(A, {
			votes: [
				{
					voter: 'bob',
					votedFor: 'alice',
					votedForLabel: 'agent1.1',
					reason: 'meets both',
					scores: [
						{
							label: 'agent1.1',
							criteria: [
								{ id: 'C1', score: 8 },
								{ id: 'C2', score: 9 },
							],
						},
						{
							label: 'agent2.1',
							criteria: [
								{ id: 'C1', score: 5 },
								{ id: 'C2', score: 7 },
							],
						},
					],
				},
			],
			checklist: {
				threshold: 7,
				criteria: [
					{ id: 'C1', text: 'Handles\nempty input', category: 'primary', round: 0 },
					{ id: 'C2', text: 'Has tests', category: 'standard', round: 1, proposedBy: 'bob' },
				],
			},
		});
		const md = await exportRunMarkdown(ws, A);
		expect(md).toContain(
			[
				'## Checklist (! below the threshold)',
				'',
				'- an answer needs 7 or more on every criterion to be voted for',
				'- C1 (primary): Handles empty input',
				'- C2 (standard, proposed by bob in round 1): Has tests',
				'- bob scored: agent1.1 C1 8 C2 9 · agent2.1 C1 5! C2 7',
			].join('\n'),
		);
		await write(B, {});
		expect(await exportRunMarkdown(ws, B)).not.toContain('Checklist');
	});

	it('exports a session as every turn of the chain, oldest first', async () => {
		await write(A, {});
		await write(B, { question: 'Now the tests', session: { id: A, parentRunId: A } });
		const md = await exportSessionMarkdown(ws, B);
		expect(
			md.startsWith('# MassGen session (2 turn(s))\n\n## Turn 1: MassGen run `20250101-090000-aaaa`'),
		).toBe(true);
		expect(md).toContain('## Turn 2: MassGen run `20250101-091000-bbbb`\n\n> Now the tests');
		expect(md).toContain(`- **Follows up on:** \`${A}\``);
		expect(md).toContain('### Final answer');
	});

	it('has nothing the run directory does not: a secret the run redacted stays redacted', async () => {
		await write(A, { finalAnswer: 'key sk-live-123456 used' }, '', new Redactor(['sk-live-123456']));
		await writeFile(join(ws, 'unrelated.txt'), 'sk-live-123456');
		const md = await exportRunMarkdown(ws, A);
		expect(md).not.toContain('sk-live-123456');
		expect(md).toContain('key [redacted] used');
	});
});
