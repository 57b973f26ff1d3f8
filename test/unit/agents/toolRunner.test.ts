import { describe, expect, it } from 'vitest';
import { budgetedCalls, runToolCalls } from '../../../src/core/agents/toolRunner.js';
import type { RunEventBody } from '../../../src/contract/runEvents.js';
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
		// Cancelled once the tool is running: the call returns though the tool never answers.
		const run = {
			agentId: 'a',
			phase: 'coordination' as const,
			toolbox: {
				...stuck,
				execute: () => {
					queueMicrotask(() => controller.abort());
					return stuck.execute('slow_tool', {}, controller.signal);
				},
			},
			signal: controller.signal,
			emit: (e: RunEventBody) => events.push(e),
		};
		const messages = await runToolCalls([{ id: 'c1', name: 'slow_tool', arguments: {} }], run, 5);
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

	it("records a coding agent's folder edits past the budget; only the calls it asked for are limited", async () => {
		const ran: string[] = [];
		const recorder: Toolbox = {
			definitions: [],
			has: () => true,
			execute: async (name, args) => {
				ran.push(`${name}:${String(args.path)}`);
				return { text: 'ok', isError: false };
			},
		};
		const run = {
			agentId: 'coder',
			phase: 'coordination' as const,
			toolbox: recorder,
			signal: new AbortController().signal,
			emit: () => undefined,
		};
		const edit = (path: string) => ({
			id: path,
			name: 'write_file',
			arguments: { path, content: 'x' },
			madeInFolder: true as const,
		});
		const asked = (path: string) => ({ id: `r-${path}`, name: 'read_file', arguments: { path } });
		const calls = [edit('a.ts'), asked('b.ts'), edit('c.ts'), asked('d.ts'), edit('e.ts')];
		const messages = await runToolCalls(calls, run, 1);
		expect(ran).toEqual(['write_file:a.ts', 'read_file:b.ts', 'write_file:c.ts', 'write_file:e.ts']);
		expect(messages.filter((m) => m.role === 'tool' && m.isError).map((m) => m.content)).toEqual([
			'read_file: tool call limit for this turn reached.',
		]);
		expect(budgetedCalls(calls)).toBe(2);
	});
});
