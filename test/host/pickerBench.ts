// In-host bench (not a test: no `.itest`, so the suite's mocha never loads it). Loaded by
// test/bench/picker.bench.ts as the extension tests entry in code-server's extension host: the
// same team asked through VS Code's language model API (the model picker's path: vendor `massgen`,
// `sendRequest`, the response stream) and through the run controller's `tryStart` (the path Ask
// Team takes), and the Ask Team command itself; first, how long the extension took to activate. Prints one `massgen-picker-bench <json>` line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { startLoopbackTeam } from '../servers/loopbackTeam';
import { useConfig } from './hostWaits';
import { type PickerBenchResult, pickerBenchPrefix, type PickerSample } from './pickerBenchResult';

const teamName = 'MassGen: bench (4 agents)';

async function teamModel(): Promise<vscode.LanguageModelChat> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const found = (await vscode.lm.selectChatModels({ vendor: 'massgen' })).find((m) => m.name === teamName);
		if (found) return found;
		if (Date.now() > deadline) throw new Error(`no model '${teamName}'`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** The picker's path: `sendRequest` → the first text part of the stream, → the stream's end. */
async function viaPicker(model: vscode.LanguageModelChat, question: string): Promise<PickerSample> {
	const started = performance.now();
	const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(question)]);
	let firstMs: number | undefined;
	let text = '';
	for await (const part of response.stream) {
		if (!(part instanceof vscode.LanguageModelTextPart)) continue;
		firstMs ??= performance.now() - started;
		text += part.value;
	}
	if (!text.includes('**Vote:**')) throw new Error(`the picker's answer has no vote: ${text}`);
	return { firstMs, totalMs: performance.now() - started };
}

/** The run controller's path (what Ask Team calls): request → the first event batch, → the run's end. */
async function viaTryStart(api: MassGenApi, question: string): Promise<PickerSample> {
	const started = performance.now();
	let firstMs: number | undefined;
	const outcome = await api.runs.tryStart({ question, kind: 'ask' }, undefined, () => {
		firstMs ??= performance.now() - started;
	});
	if (!('run' in outcome) || outcome.run.result.status !== 'completed') {
		throw new Error(`tryStart: ${JSON.stringify('run' in outcome ? outcome.run.result.status : outcome)}`);
	}
	return { firstMs, totalMs: performance.now() - started };
}

/** The Ask Team command with a question argument (also opens the panel): → it resolves. */
async function viaCommand(question: string): Promise<PickerSample> {
	const started = performance.now();
	const run = await vscode.commands.executeCommand<FinishedRun | undefined>(commandIds.askTeam, question);
	if (run?.result.status !== 'completed') throw new Error(`Ask Team: ${run?.result.status}`);
	return { firstMs: undefined, totalMs: performance.now() - started };
}

export async function run(): Promise<void> {
	const runs = Number(process.env['BENCH_PICKER_RUNS'] ?? 9);
	const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
	if (!extension) throw new Error('the extension is not loaded');
	const loadStarted = performance.now();
	const api = await extension.activate();
	const activation = { activateMs: api.activationMs, withLoadMs: performance.now() - loadStarted };
	const team = await startLoopbackTeam({ auto: {} });
	const configDir = mkdtempSync(join(tmpdir(), 'massgen-picker-bench-'));
	const config = join(configDir, 'bench.yaml');
	writeFileSync(config, team.configYaml());
	const samples = {
		picker: [] as PickerSample[],
		tryStart: [] as PickerSample[],
		command: [] as PickerSample[],
	};
	try {
		await useConfig(config);
		const model = await teamModel();
		const paths = {
			picker: (question: string) => viaPicker(model, question),
			tryStart: (question: string) => viaTryStart(api, question),
			command: viaCommand,
		};
		const order = Object.keys(paths) as (keyof typeof paths)[];
		// Round 0 warms each path (the SDK bundles' first require, the panel's first render): not
		// counted. Each round starts with another path, so no path always follows the same one.
		for (let i = 0; i <= runs; i++) {
			for (let k = 0; k < order.length; k++) {
				const path = order[(i + k) % order.length]!;
				const sample = await paths[path](`What is ${i} + ${k}?`);
				if (i > 0) samples[path].push(sample);
			}
		}
	} finally {
		await useConfig(undefined);
		await team.close();
		rmSync(configDir, { recursive: true, force: true });
	}
	const result: PickerBenchResult = {
		vscodeVersion: vscode.version,
		node: process.version,
		runs,
		activation,
		samples,
	};
	console.log(`${pickerBenchPrefix} ${JSON.stringify(result)}`);
}
