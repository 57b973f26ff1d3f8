/**
 * Streaming: bursts of events are folded at once and rendered at most once per animation frame,
 * only the lanes that changed are touched, streamed text is appended (not rebuilt), lanes follow
 * the end unless the user scrolled up, and very long streams are trimmed with a note.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { MAX_STREAM_CHARS } from '../../../src/protocol/runState.js';
import { usePanelPerTest } from './panelSession.js';

const runId = '20260301-090000-strm';

class EventSource {
	private _seq = 0;
	event(body: RunEventBody, t = this._seq * 5): RunEvent {
		return { runId, seq: this._seq++, t, ...body } as RunEvent;
	}
	start(agents: string[]): RunEvent[] {
		return [
			this.event({
				type: 'run-start',
				question: 'Stream test',
				workspace: '/tmp/ws',
				agents: agents.map((agentId, i) => ({
					agentId,
					anonId: `agent${i + 1}`,
					provider: 'scripted',
					model: `model-${agentId}`,
				})),
			}),
			...agents.map((agentId) => this.event({ type: 'round-start', agentId, round: 1, snapshot: [] })),
		];
	}
	deltas(agentId: string, count: number, text: (i: number) => string): RunEvent[] {
		return Array.from({ length: count }, (_, i) =>
			this.event({ type: 'text-delta', agentId, phase: 'coordination', text: text(i) }),
		);
	}
}

const ui = usePanelPerTest({
	afterOpen: async (p) => {
		await p.send({ type: 'snapshot', state: null, runs: [] });
	},
});

/** Posts each batch as its own `events` message, all within one task (a burst from the host). */
async function burst(batches: RunEvent[][]): Promise<void> {
	const messages = batches.map((events) => ({ type: 'events', events }));
	await ui.panel.page.evaluate(`for (const m of ${JSON.stringify(messages)}) window.postMessage(m, '*');`);
	await ui.panel.frames(3);
}

const streamText = (agentId: string) =>
	ui.panel.page.evaluate(
		`[...document.querySelectorAll('section.lane[data-agent="${agentId}"] .lane-stream .stream-chunk')].map((chunk) => chunk.textContent).join('')`,
	) as Promise<string>;

describe('webview streaming', () => {
	it('1,000 text deltas in one burst of 1,000 messages cause at most a few renders, and the text is exact', async () => {
		const source = new EventSource();
		await ui.panel.send({ type: 'events', events: source.start(['alpha', 'beta', 'gamma']) });
		const before = await ui.panel.renders();
		const deltas = source.deltas('alpha', 1_000, (i) => `tok${i} `);
		await burst(deltas.map((event) => [event]));
		const renders = (await ui.panel.renders()) - before;
		console.log(`renders for 1,000 separate messages: ${renders}`);
		expect(renders).toBeGreaterThanOrEqual(1);
		expect(renders).toBeLessThanOrEqual(4);
		expect(await streamText('alpha')).toBe(deltas.map((e) => (e as { text: string }).text).join(''));
	});

	it('one message carrying 1,000 events is exactly one render', async () => {
		const source = new EventSource();
		await ui.panel.send({ type: 'events', events: source.start(['alpha', 'beta']) });
		const before = await ui.panel.renders();
		await burst([
			[...source.deltas('alpha', 500, (i) => `a${i} `), ...source.deltas('beta', 500, (i) => `b${i} `)],
		]);
		expect((await ui.panel.renders()) - before).toBe(1);
	});

	it('touches only the lanes whose data changed, and appends to the text node instead of replacing it', async () => {
		const source = new EventSource();
		await ui.panel.send({ type: 'events', events: source.start(['alpha', 'beta', 'gamma']) });
		await ui.panel.send({ type: 'events', events: source.deltas('alpha', 3, (i) => `first${i} `) });
		await ui.panel.page.evaluate(`(() => {
			window.__mutations = { beta: 0, gamma: 0, alphaNodes: 0 };
			for (const id of ['beta', 'gamma']) {
				new MutationObserver((records) => { window.__mutations[id] += records.length; })
					.observe(document.querySelector('section.lane[data-agent="' + id + '"]'), { subtree: true, childList: true, characterData: true, attributes: true });
			}
			window.__alphaText = document.querySelector('section.lane[data-agent="alpha"] .lane-stream .stream-chunk').firstChild;
		})()`);
		for (let i = 0; i < 5; i++) {
			await ui.panel.send({ type: 'events', events: source.deltas('alpha', 20, (k) => `more${i}.${k} `) });
		}
		const result = (await ui.panel.page.evaluate(
			`({ mutations: window.__mutations, sameNode: window.__alphaText === document.querySelector('section.lane[data-agent="alpha"] .lane-stream .stream-chunk').firstChild })`,
		)) as { mutations: { beta: number; gamma: number }; sameNode: boolean };
		expect(result.mutations.beta).toBe(0);
		expect(result.mutations.gamma).toBe(0);
		expect(result.sameNode).toBe(true);
	});

	it('follows the end of a lane unless the user scrolled up, and resumes at the bottom', async () => {
		const source = new EventSource();
		await ui.panel.send({ type: 'events', events: source.start(['alpha']) });
		const stream = ui.panel.page.locator('section.lane[data-agent="alpha"] .lane-stream');
		// A lane is compact while the run goes on: its name expands it to the whole output.
		await ui.panel.page.locator('section.lane[data-agent="alpha"] .lane-toggle').click();
		const metrics = () =>
			stream.evaluate((element) => {
				const box = element as unknown as { scrollTop: number; scrollHeight: number; clientHeight: number };
				return { top: box.scrollTop, bottom: box.scrollHeight - box.clientHeight };
			});
		await ui.panel.send({ type: 'events', events: source.deltas('alpha', 200, (i) => `line ${i}\n`) });
		let m = await metrics();
		expect(m.bottom).toBeGreaterThan(0);
		expect(Math.abs(m.top - m.bottom)).toBeLessThanOrEqual(1);

		await stream.hover();
		await ui.panel.page.mouse.wheel(0, -300);
		await ui.panel.frames(3);
		const scrolledTo = (await metrics()).top;
		expect(scrolledTo).toBeLessThan(m.bottom - 100);
		await ui.panel.send({ type: 'events', events: source.deltas('alpha', 100, (i) => `later ${i}\n`) });
		m = await metrics();
		expect(m.top).toBe(scrolledTo);

		await ui.panel.page.mouse.wheel(0, 100_000);
		await ui.panel.frames(3);
		await ui.panel.send({ type: 'events', events: source.deltas('alpha', 50, (i) => `end ${i}\n`) });
		m = await metrics();
		expect(Math.abs(m.top - m.bottom)).toBeLessThanOrEqual(1);
	});

	it('trims very long streams and says how much was dropped', async () => {
		const source = new EventSource();
		await ui.panel.send({ type: 'events', events: source.start(['alpha']) });
		const chunk = 'x'.repeat(999) + '\n';
		await ui.panel.send({ type: 'events', events: source.deltas('alpha', 40, () => chunk) });
		const text = await streamText('alpha');
		expect(text.length).toBeLessThanOrEqual(MAX_STREAM_CHARS + 4_096);
		expect(text).toBe(chunk.repeat(40).slice(-text.length));
		await expect(
			ui.panel.page.locator('section.lane[data-agent="alpha"] .lane-stream .stream-dropped').textContent(),
		).resolves.toMatch(/… [\d,]+ earlier characters not shown/);
		await ui.panel.screenshot('streaming-trimmed', false);
	});
});
