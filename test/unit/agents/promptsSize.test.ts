import { afterEach, describe, expect, it } from 'vitest';
import { coordinationSystemPrompt, updateMessage } from '../../../src/core/agents/prompts.js';
import { workflowTools } from '../../../src/core/agents/workflowTools.js';
import type { AnswerRecord } from '../../../src/core/agents/answers.js';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

/** What every coordination request repeats: its size is paid on each call of each agent. */
describe('coordination request size', () => {
	const answer = (anonId: string): AnswerRecord => ({
		agentId: `config_${anonId}`,
		anonId,
		label: `${anonId}.1`,
		content: `Answer of ${anonId}.`,
		overlay: { edits: new Map() },
		acceptedAt: 0,
	});

	it('sends all nine coordination tools in under 3.3 kB of JSON, without zod safe-integer bounds', async () => {
		const workspace = await createWorkspace(await makeTree({ 'a.ts': 'export {}\n' }));
		const answers = new Map([
			['agent1', answer('agent1')],
			['agent2', answer('agent2')],
		]);
		const toolbox = createToolbox({
			overlay: workspace.createOverlay(),
			writable: true,
			answers: new Map([...answers].map(([id, record]) => [id, record.overlay])),
		});
		const tools = [...toolbox.definitions, ...workflowTools(['agent1', 'agent2'])];
		expect(tools).toHaveLength(9);
		const json = JSON.stringify(tools);
		expect(json.length).toBeLessThan(3300);
		expect(json).not.toContain(String(Number.MAX_SAFE_INTEGER));
		expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
	});

	it('keeps the system prompt under 900 characters at every sensitivity', () => {
		for (const sensitivity of ['lenient', 'balanced', 'strict'] as const) {
			const system = coordinationSystemPrompt({
				votingSensitivity: sensitivity,
				noveltyRequirement: sensitivity,
			});
			expect(system.length).toBeLessThan(900);
			expect(system).toContain('exactly one workflow call');
		}
	});

	it('an UPDATE carries the new answers and little else', () => {
		const message = updateMessage([answer('agent3')]);
		expect(message).toContain('<answer id="agent3">\nAnswer of agent3.\n</answer>');
		expect(message.length - '<answer id="agent3">\nAnswer of agent3.\n</answer>'.length).toBeLessThan(130);
	});
});
