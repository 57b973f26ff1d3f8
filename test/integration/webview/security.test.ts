/**
 * Untrusted content: model text, answers, tool arguments, ids and questions never execute or load
 * anything, links never navigate, and the page records zero CSP violations. A control test proves
 * the violation listener does catch a blocked inline handler.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { usePanelPerTest } from './panelSession.js';

const runId = '20260201-120000-xss0';
const payloads = [
	'<img src=x onerror="window.__xss=true">',
	'<script>window.__xss=true</script>',
	'<svg onload="window.__xss=true"></svg>',
	'<iframe src="javascript:window.__xss=true"></iframe>',
	'<details open ontoggle="window.__xss=true">x</details>',
	'<a href="javascript:window.__xss=true">js link</a>',
	'<div style="position:fixed;inset:0;background:red">overlay</div>',
	'<style>body{display:none}</style>',
	'<form action="https://evil.example"><button>go</button></form>',
].join('\n\n');

const hostileMarkdown = [
	'# Result',
	'',
	payloads,
	'',
	'[click me](javascript:window.__xss=true) and [external](https://evil.example/steal) and <https://evil.example/auto>',
	'',
	'![tracker](https://evil.example/pixel.png) ![inline](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)',
	'',
	'- [x] done task',
	'',
	'```html',
	'<img src=x onerror="window.__xss=true">',
	'```',
].join('\n');

function hostileRun(): RunEvent[] {
	const agent = 'evil<img src=x onerror="window.__xss=true">';
	const bodies: RunEventBody[] = [
		{
			type: 'run-start',
			question: 'Question <script>window.__xss=true</script>',
			workspace: '/tmp/ws',
			agents: [
				{ agentId: agent, anonId: 'agent1', provider: '<b>p</b>', model: '<img src=x onerror=alert(1)>' },
				{ agentId: '__proto__', anonId: 'agent2', provider: 'openai', model: 'constructor' },
			],
		},
		{ type: 'round-start', agentId: agent, round: 1, snapshot: [] },
		{ type: 'text-delta', agentId: agent, phase: 'coordination', text: payloads },
		{ type: 'reasoning-delta', agentId: agent, phase: 'coordination', text: payloads },
		{
			type: 'tool-call',
			agentId: agent,
			phase: 'coordination',
			callId: 'x"><img src=x onerror=1>',
			name: '<script>',
			args: { path: '<img src=x onerror="window.__xss=true">' },
		},
		{
			type: 'tool-result',
			agentId: agent,
			phase: 'coordination',
			callId: 'x"><img src=x onerror=1>',
			name: '<script>',
			isError: true,
			text: payloads,
		},
		{ type: 'new-answer', agentId: agent, label: 'agent1.1', content: hostileMarkdown },
		{ type: 'round-start', agentId: '__proto__', round: 1, snapshot: ['agent1.1'] },
		{
			type: 'vote',
			agentId: '__proto__',
			voter: '__proto__',
			votedFor: 'agent1.1',
			votedForAgent: agent,
			reason: payloads,
		},
		{
			type: 'agent-error',
			agentId: '__proto__',
			message: payloads,
			kind: '<img>',
			retryable: false,
			failures: 1,
		},
		{
			type: 'approval-request',
			agentId: agent,
			requestId: 'req-x',
			action: '<script>',
			// A command disguised with a carriage return, an erase-line sequence and a bidi override.
			target: `${payloads}\nrm -rf ~/x\r\u001b[2Kls -la #\u202e txt.eman`,
			reason: payloads,
		},
		{ type: 'winner-selected', agentId: agent, label: 'agent1.1', tally: { [agent]: 1 }, reason: 'votes' },
		{ type: 'presentation-start', agentId: agent },
		{ type: 'text-delta', agentId: agent, phase: 'presentation', text: payloads },
		{
			type: 'file-edit',
			agentId: agent,
			phase: 'presentation',
			path: 'docs/<img src=x onerror=1>.md',
			kind: 'add',
		},
		{ type: 'final-answer', agentId: agent, label: 'agent1.final', content: hostileMarkdown },
		{ type: 'run-end', status: 'completed', durationMs: 10 },
	];
	return bodies.map((body, seq) => ({ runId, seq, t: seq * 10, ...body }) as RunEvent);
}

const ui = usePanelPerTest();

describe('webview security', () => {
	it('renders hostile content as text or sanitised Markdown: nothing runs, loads or navigates, zero CSP violations', async () => {
		await ui.panel.send({
			type: 'snapshot',
			state: null,
			runs: [
				{
					runId,
					question: '<img src=x onerror="window.__xss=true">',
					status: 'completed',
					startedAt: 'bad date',
					winner: null,
				},
			],
		});
		await ui.panel.send({ type: 'events', events: hostileRun() });
		const page = ui.panel.page;

		// Open everything that renders lazily: answers, tool calls, reasoning.
		for (const summary of await page
			.locator('.answer summary, .tool-call summary, .lane-reasoning summary')
			.filter({ visible: true })
			.all()) {
			await summary.click();
		}
		await ui.panel.frames();
		await page.locator('.final-markdown .md-link').first().click();
		await page.locator('.final-markdown .md-link').nth(1).click();
		await new Promise((resolve) => setTimeout(resolve, 300));

		expect(await page.evaluate('window.__xss === undefined')).toBe(true);
		expect(page.url()).toBe(ui.harness.server.url('test'));
		// The javascript: link posts nothing; the https one asks the host to open it (citations.test.ts).
		expect(await ui.panel.posted()).toEqual([
			{ type: 'ready' },
			{ type: 'open-link', url: 'https://evil.example/steal' },
		]);
		// No active element came from content anywhere in the page.
		expect(
			await page
				.locator(
					'#app img, #app script, #app iframe, #app style, #app form, #app svg [onload], #app [onerror], #app [style*="position"]',
				)
				.count(),
		).toBe(0);
		// (Playwright's CSS pierces shadow roots: the vscode-icon stylesheet links are the components' own.)
		expect(await page.locator('#app [href]:not(link[rel="stylesheet"])').count()).toBe(0);

		// Model text shows literally.
		await expect(page.locator('h1.question').textContent()).resolves.toBe(
			'Question <script>window.__xss=true</script>',
		);
		await expect(page.locator('.lane-stream').first().textContent()).resolves.toContain(
			'<img src=x onerror="window.__xss=true">',
		);
		await expect(page.locator('.lane-title .lane-id').first().textContent()).resolves.toBe(
			'evil<img src=x onerror="window.__xss=true">',
		);
		await expect(page.locator('.reasons .reason').textContent()).resolves.toContain(
			'<script>window.__xss=true</script>',
		);
		await expect(page.locator('.approval-target').textContent()).resolves.toContain(
			'<svg onload="window.__xss=true"></svg>',
		);
		// The card shows the disguise visibly, not as a second order of the text.
		await expect(page.locator('.approval-target').textContent()).resolves.toContain(
			'rm -rf ~/x␍␛[2Kls -la #<U+202E> txt.eman',
		);
		await expect(page.locator('.change').getAttribute('data-path')).resolves.toBe(
			'docs/<img src=x onerror=1>.md',
		);
		// Markdown: raw HTML is shown as text, links keep their address only as a tooltip, images become a note.
		const final = page.locator('.final-markdown');
		await expect(final.textContent()).resolves.toContain('<img src=x onerror="window.__xss=true">');
		await expect(
			final.locator('.md-link').evaluateAll((links) => links.map((link) => link.getAttribute('title'))),
		).resolves.toEqual([
			null, // the javascript: URL is dropped altogether
			'https://evil.example/steal',
			'https://evil.example/auto',
		]);
		await expect(final.locator('.md-image').allTextContents()).resolves.toEqual([
			'[image: tracker]',
			'[image: inline]',
		]);
		await expect(final.locator('pre code').textContent()).resolves.toContain(
			'<img src=x onerror="window.__xss=true">',
		);
		// `__proto__` is an agent id like any other.
		expect(await page.locator('section.lane[data-agent="__proto__"]').count()).toBe(1);
		await ui.panel.screenshot('hostile-content');
	});

	it('control: the CSP blocks an inline handler and the page records it (the listener works)', async () => {
		await ui.panel.page.evaluate(
			`document.body.insertAdjacentHTML('beforeend', '<img src="data:," onload="window.__xss=true">')`,
		);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(await ui.panel.page.evaluate('window.__xss === undefined')).toBe(true);
		const violations = await ui.panel.violations();
		expect(violations.map((v) => v.directive)).toContain('script-src-attr');
		// Reset, so the shared zero-violation check judges only the panel's own behaviour.
		await ui.panel.page.evaluate(
			'window.__violations.length = 0; document.querySelectorAll("body > img").forEach((i) => i.remove())',
		);
		ui.panel.consoleErrors.length = 0;
	});
});
