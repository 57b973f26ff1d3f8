/**
 * `npm run bench`: how close a run comes to the protocol's critical path, and what the
 * orchestrator costs per event. Prints JSON on stdout.
 *
 * With a scripted model of fixed latency L, the shortest possible run is answer → vote →
 * presentation = 3L. `ratio` = wall time / 3L (1.00 is perfect; the target is ≤ 1.05 from 3 to 16 agents).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Orchestrator } from '../../src/core/orchestrator/orchestrator.js';
import type { ChatRequest } from '../../src/core/providers/model.js';
import { ScriptedModel } from '../../src/core/providers/scriptedModel.js';
import { createWorkspace } from '../../src/core/workspace/createWorkspace.js';

const latencyMs = Number(process.env['BENCH_LATENCY_MS'] ?? 200);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);

function voteOptions(request: ChatRequest): string[] {
	const vote = request.tools.find((tool) => tool.name === 'vote');
	return (vote?.parameters['properties'] as { agent_id?: { enum?: string[] } })?.agent_id?.enum ?? [];
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

async function runOnce(agents: number, latency: number, words: number) {
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

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

async function main() {
	await runOnce(3, 5, 4); // warm up the JIT and module loading
	const criticalPath = [];
	for (const agents of [3, 8, 16]) {
		const runs = [];
		for (let i = 0; i < repeats; i++) runs.push(await runOnce(agents, latencyMs, 40));
		const wall = median(runs.map((r) => r.wallMs));
		criticalPath.push({
			agents,
			latencyMs,
			wallMs: Math.round(wall),
			ratio: Number((wall / (3 * latencyMs)).toFixed(3)),
			events: runs[0]!.events,
			cpuMsPer1000Events: Number(((median(runs.map((r) => r.cpuMs)) / runs[0]!.events) * 1000).toFixed(1)),
		});
	}
	// CPU cost with no waiting at all: 16 agents streaming long answers as fast as possible.
	const stress = await runOnce(16, 0, 2_000);
	const output = {
		node: process.version,
		criticalPath,
		cpuOnly: {
			agents: 16,
			events: stress.events,
			cpuMs: Math.round(stress.cpuMs),
			cpuMsPer1000Events: Number(((stress.cpuMs / stress.events) * 1000).toFixed(2)),
		},
	};
	process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
}

void main();
