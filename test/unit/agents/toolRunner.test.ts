import { describe, expect, it } from 'vitest';
import { runToolCalls } from '../../../src/core/agents/toolRunner.js';
import type { RunEventBody } from '../../../src/core/events/runEvents.js';
import type { Toolbox } from '../../../src/core/tools/types.js';

/** A tool that never notices cancellation (an MCP server that hangs, say). */
const stuck: Toolbox = {
	definitions: [],
	has: () => true,
	execute: () => new Promise(() => undefined),
};

describe('runToolCalls', () => {
	it('returns cancelled as soon as the run is, even if the tool never answers', async () => {
		const controller = new AbortController();
		const events: RunEventBody[] = [];
		const run = {
			agentId: 'a',
			phase: 'coordination' as const,
			toolbox: stuck,
			signal: controller.signal,
			emit: (e: RunEventBody) => events.push(e),
		};
		setTimeout(() => controller.abort(), 30);
		const started = performance.now();
		const messages = await runToolCalls([{ id: 'c1', name: 'slow_tool', arguments: {} }], run, 5);
		expect(performance.now() - started).toBeLessThan(1000);
		expect(messages).toEqual([
			{
				role: 'tool',
				toolCallId: 'c1',
				toolName: 'slow_tool',
				content: 'slow_tool: cancelled',
				isError: true,
			},
		]);
		expect(events.map((e) => e.type)).toEqual(['tool-call', 'tool-result']);
	});
});
