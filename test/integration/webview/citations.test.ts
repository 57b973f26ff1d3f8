/**
 * Citations in the panel (docs/protocol.md): a final answer ending in the "Sources:" list the adapters write
 * renders its http(s) links sanitised (no `href`: nothing navigates); a click posts the validated
 * `open-link` message for the host to open; `javascript:` and `data:` links stay inert.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { parseWebviewMessage } from '../../../src/protocol/webviewMessageSchema.js';
import { usePanelPerTest } from './panelSession.js';

const runId = '20260201-120000-cite';
const sources = [
	'https://www.typescriptlang.org/docs/handbook/release-notes/typescript-5-9.html',
	'https://devblogs.microsoft.com/typescript/announcing-typescript-5-9/',
];
const answer = [
	'TypeScript 5.9 adds `import defer`, see [the notes](javascript:window.__xss=true) and [this](data:text/html,<b>x</b>).',
	'',
	'Sources:',
	`1. [TypeScript 5.9](${sources[0]})`,
	`2. [Announcing TypeScript 5.9](${sources[1]})`,
	'',
].join('\n');

function citedRun(): RunEvent[] {
	const bodies: RunEventBody[] = [
		{
			type: 'run-start',
			question: 'What is new in TypeScript 5.9?',
			workspace: '/tmp/ws',
			agents: [{ agentId: 'gpt5nano', anonId: 'agent1', provider: 'openai', model: 'gpt-5-nano' }],
		},
		{ type: 'round-start', agentId: 'gpt5nano', round: 1, snapshot: [] },
		{ type: 'final-answer', agentId: 'gpt5nano', label: 'agent1.final', content: answer },
		{ type: 'run-end', status: 'completed', durationMs: 10 },
	];
	return bodies.map((body, seq) => ({ runId, seq, t: seq * 10, ...body }) as RunEvent);
}

const ui = usePanelPerTest();

describe('citations in the panel', () => {
	it('lists the sources as links without href; a click posts a valid open-link, never navigates; javascript:/data: do nothing', async () => {
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({ type: 'events', events: citedRun() });
		await ui.panel.frames();
		const page = ui.panel.page;
		const final = page.locator('.final-markdown');
		await expect(final.locator('ol li').allTextContents()).resolves.toEqual([
			'TypeScript 5.9',
			'Announcing TypeScript 5.9',
		]);
		const links = final.locator('.md-link');
		await expect(
			links.evaluateAll((all) => all.map((a) => [a.textContent, a.getAttribute('data-url')])),
		).resolves.toEqual([
			['the notes', null],
			['this', null],
			['TypeScript 5.9', sources[0]],
			['Announcing TypeScript 5.9', sources[1]],
		]);
		expect(await page.locator('#app a[href]').count()).toBe(0);

		// The inert links first: nothing is posted for them.
		await links.nth(0).click();
		await links.nth(1).click();
		await links.nth(3).click();
		await ui.panel.frames();
		const posted = (await ui.panel.posted()).filter((m) => (m as { type: string }).type !== 'ready');
		expect(posted).toEqual([{ type: 'open-link', url: sources[1] }]);
		// What the host accepts: the posted message passes its validation as it came.
		expect(parseWebviewMessage(posted[0])).toEqual({ ok: true, message: posted[0] });
		expect(page.url()).toBe(ui.harness.server.url('test'));
		expect(await page.evaluate('window.__xss === undefined')).toBe(true);
		expect(await ui.panel.violations()).toEqual([]);
	});
});
