import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderStatusTable } from '../../../../src/cli/display/renderStatusTable.js';
import { textWidth } from '../../../../src/cli/display/terminalText.js';
import { TtyDisplay } from '../../../../src/cli/display/ttyDisplay.js';
import { reduceRunEvents } from '../../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../../src/protocol/runState.js';
import { RUN_ID } from '../../protocol/eventFixtures.js';
import { convergenceEvents } from '../../protocol/scenarios.js';
import { FakeStream } from './fakeStream.js';

const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

describe('TtyDisplay', () => {
	let clock = 0;
	beforeEach(() => {
		vi.useFakeTimers();
		clock = 0;
	});
	afterEach(() => {
		vi.useRealTimers();
	});
	const now = () => clock;
	const advance = (ms: number) => {
		clock += ms;
		vi.advanceTimersByTime(ms);
	};

	it('redraws the table in place with ANSI, hides then restores the cursor', () => {
		const stream = new FakeStream(true, 120, 40);
		const display = new TtyDisplay(stream, { now, color: true });
		const events = convergenceEvents();
		for (const event of events) {
			display.onEvent(event);
			advance(200);
		}
		display.close();
		const text = stream.text;
		expect(text.startsWith('\u001b[?25l')).toBe(true);
		expect(text.endsWith('\u001b[?25h')).toBe(true);
		expect(text).toMatch(/\u001b\[\d+A\r\u001b\[J/);
		expect(text).toContain('\u001b[36mstreaming');
		const last = stripAnsi(stream.chunks.at(-2)!);
		expect(last).toContain('alice');
		expect(last).toContain('winner: alice with agent1.2 (3 votes)');
		expect(last).toMatch(/alice\s+openai\/gpt-4o\s+done\s+3\s+2\s+3\s+300\/50\s+\$0\.0300/);
		expect(last).toMatch(/bob\s+claude\/claude-sonnet-4\s+done\s+3\s+0\s+0\s+50\/5\s+no price/);
		expect(stripAnsi(text)).toContain('bob votes agent1.2: better');
	});

	it('throttles a burst of deltas to at most 10 redraws a second and draws the rest later', () => {
		const stream = new FakeStream(true, 100);
		const display = new TtyDisplay(stream, { now, color: false });
		const [start] = convergenceEvents();
		display.onEvent(start!);
		expect(display.redraws).toBe(1);
		for (let seq = 100; seq < 1_100; seq++) {
			display.onEvent({
				type: 'text-delta',
				agentId: 'alice',
				phase: 'coordination',
				text: 'tok ',
				runId: RUN_ID,
				seq,
				t: seq,
			});
			advance(1);
		}
		expect(display.redraws).toBeGreaterThanOrEqual(9);
		expect(display.redraws).toBeLessThanOrEqual(11);
		const before = display.redraws;
		display.onEvent({
			type: 'text-delta',
			agentId: 'alice',
			phase: 'coordination',
			text: 'END',
			runId: RUN_ID,
			seq: 2_000,
			t: 2_000,
		});
		expect(display.redraws).toBe(before);
		advance(100);
		expect(display.redraws).toBe(before + 1);
		expect(stripAnsi(stream.chunks.at(-1)!)).toContain('tok END');
		display.close();
	});

	it('keeps every line within the terminal width and shows no model escape sequences', () => {
		const stream = new FakeStream(true, 50);
		const display = new TtyDisplay(stream, { now, color: false });
		for (const event of convergenceEvents()) display.onEvent(event);
		display.onEvent({
			type: 'text-delta',
			agentId: 'bob',
			phase: 'coordination',
			text: '\u001b]0;title\u0007 漢字漢字漢字 '.repeat(20),
			runId: RUN_ID,
			seq: 999,
			t: 999,
		});
		display.close();
		for (const line of stripAnsi(stream.text).split('\n')) {
			expect(textWidth(line), line).toBeLessThanOrEqual(49);
		}
		expect(stream.text).not.toContain('\u001b]0;');
	});

	it('close is idempotent and draws nothing for a display that saw no run', () => {
		const stream = new FakeStream(true, 80);
		const display = new TtyDisplay(stream, { now });
		display.close();
		display.close();
		expect(stream.text).toBe('');
	});
});

describe('renderStatusTable', () => {
	const state = reduceRunEvents(initialRunState(), convergenceEvents().slice(0, 12));

	it('shows header, column titles and one row per agent with live activity', () => {
		const lines = renderStatusTable(state, { width: 119 });
		expect(lines[0]).toMatch(/^MassGen running · 3 agents · 110ms · How should parse\(\) work\?/);
		expect(lines[1]).toMatch(/^AGENT\s+MODEL\s+STATE\s+RND\s+ANS\s+VOTES\s+TOKENS\s+COST\s+ACTIVITY$/);
		expect(lines[2]).toMatch(
			/^alice\s+openai\/gpt-4o\s+answered\s+1\s+1\s+0\s+100\/20\s+\$0\.0100\s+Draft one$/,
		);
		expect(lines).toHaveLength(5);
	});

	it('summarises lanes that do not fit the terminal height', () => {
		const lines = renderStatusTable(state, { width: 119, maxLines: 4 });
		expect(lines).toHaveLength(4);
		expect(lines.at(-1)).toBe('… 2 more agents');
	});

	it('cuts rows on a terminal narrower than the columns', () => {
		for (const line of renderStatusTable(state, { width: 30 })) {
			expect(textWidth(line)).toBeLessThanOrEqual(30);
		}
	});
});
