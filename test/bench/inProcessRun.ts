import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Orchestrator } from '../../src/core/orchestrator/orchestrator.js';
import type { ChatRequest } from '../../src/core/providers/spec/model.js';
import { answerIdsShown } from '../../src/core/workflow/markers.js';
import { ScriptedModel } from '../../src/core/providers/vendors/scriptedModel.js';
import { createWorkspace } from '../../src/core/workspace/createWorkspace.js';

/** Ids whose answers the conversation shows (`vote`'s enum lists every agent of the run). */
function voteOptions(request: ChatRequest): string[] {
	if (!request.tools.some((tool) => tool.name === 'vote')) return [];
	return answerIdsShown(request.messages.map((message) => message.content));
}

/** Answers once (distinct text), then votes for the first answer; presents plain text. */
function agentScript(index: number, text: string) {
	let answered = false;
	return (request: ChatRequest) => {
		if (!request.tools.some((tool) => tool.name === 'new_answer')) {
			return { text: `Final answer from agent ${index}. ${text}` };
		}
		const options = voteOptions(request);
		if (!answered || options.length === 0) {
			answered = true;
			return {
				text,
				toolCalls: [{ name: 'new_answer', arguments: { content: `Answer ${index}: ${text}` } }],
			};
		}
		return {
			text: 'Voting.',
			toolCalls: [{ name: 'vote', arguments: { agent_id: options[0], reason: 'best' } }],
		};
	};
}

/** One in-process run: `agents` scripted agents of fixed `latency`, answers of `words` words. */
export async function runOnce(agents: number, latency: number, words: number) {
	const workspace = await createWorkspace(mkdtempSync(join(tmpdir(), 'massgen-bench-')));
	const text = Array.from({ length: words }, (_, i) => `word${i}`).join(' ');
	const specs = Array.from({ length: agents }, (_, i) => ({
		id: `a${i + 1}`,
		model: new ScriptedModel(agentScript(i + 1, text), {
			latencyMs: latency,
			chunks: Math.max(4, Math.ceil(words / 2)),
		}),
	}));
	const orchestrator = new Orchestrator({
		question: 'Benchmark question',
		workspace,
		agents: specs,
		settings: { retryBaseDelayMs: 1 },
	});
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	let events = 0;
	for await (const _event of orchestrator.run()) events++;
	const wallMs = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	const result = orchestrator.result!;
	if (result.status !== 'completed') throw new Error(`run ${result.status}: ${result.error ?? ''}`);
	return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, events };
}
