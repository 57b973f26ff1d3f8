// In-host: the `massgen_askTeam` language model tool through the real `vscode.lm` API, scripted teams.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { RunResult } from '../../src/contract/runResult';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { startLoopbackTeam } from '../servers/loopbackTeam';
import { endRunAndConfig, snapshotFiles, until, useConfig, workspaceRoot } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';
const toolName = 'massgen_askTeam';

function toolText(result: vscode.LanguageModelToolResult): string {
	return result.content
		.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
		.join('');
}

function lastResult(root: string, runId: string): RunResult {
	return JSON.parse(readFileSync(join(root, '.massgen', 'runs', runId, 'result.json'), 'utf8')) as RunResult;
}

describe('MassGen in agent mode: the massgen_askTeam tool (scripted teams)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let fixtures: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(extension);
		api = await extension.activate();
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
	});

	afterEach(async () => {
		await endRunAndConfig(api);
	});

	it('is listed in vscode.lm.tools with its input schema', () => {
		const tool = vscode.lm.tools.find((candidate) => candidate.name === toolName);
		assert.ok(tool, `${toolName} in vscode.lm.tools`);
		assert.match(tool.description, /MassGen team/);
		const schema = tool.inputSchema as { required?: string[]; properties?: Record<string, unknown> };
		assert.deepEqual(schema.required, ['question']);
		assert.deepEqual(Object.keys(schema.properties ?? {}).sort(), ['files', 'question']);
	});

	it('returns the final answer, the vote and the proposed changes; the workspace is unchanged', async () => {
		const root = workspaceRoot();
		await useConfig(join(fixtures, 'lm-tool-team.yaml'));
		const before = snapshotFiles(root);
		const result = await vscode.lm.invokeTool(toolName, {
			input: { question: 'How should we document this project?', files: ['README.md'] },
			toolInvocationToken: undefined,
		});
		const text = toolText(result);
		const winner = /(planner|reviewer)'s presentation/.exec(text)?.[1];
		assert.ok(winner, `the winner's final answer in the tool result:\n${text}`);
		assert.match(text, new RegExp(`Vote: ${winner} won with 2 of 2 votes`));
		assert.match(text, /Proposed changes \(not applied[^\n]*\n- add lm-tool\/GUIDE\.md$/);
		// The tool proposes; nothing reaches the disk.
		assert.deepEqual(snapshotFiles(root), before);

		// The file given in `files` was attached to the question (the run's record of it).
		const state = api.lastState();
		assert.ok(state?.runId);
		const record = lastResult(root, state.runId);
		assert.equal(record.status, 'completed');
		assert.deepEqual(
			record.attachments?.map((attachment) => `${attachment.kind} ${attachment.source}`),
			['file README.md'],
		);
		const readme = readFileSync(join(root, 'README.md'));
		assert.equal(record.attachments?.[0]?.sha256, createHash('sha256').update(readme).digest('hex'));
	});

	it("puts a file given in `files` into every agent's first request (four SDKs against loopback servers)", async () => {
		const root = workspaceRoot();
		const team = await startLoopbackTeam();
		const dir = mkdtempSync(join(tmpdir(), 'massgen-lm-tool-'));
		try {
			const config = join(dir, 'team.yaml');
			writeFileSync(config, team.configYaml());
			await useConfig(config);
			const result = await vscode.lm.invokeTool(toolName, {
				input: { question: 'What does hello.ts export?', files: ['hello.ts'] },
				toolInvocationToken: undefined,
			});
			assert.doesNotMatch(toolText(result), /^Error/);
			const hello = readFileSync(join(root, 'hello.ts'), 'utf8');
			for (const [protocol, server] of Object.entries(team.servers)) {
				const first = server.requests[0];
				assert.ok(first, `${protocol}: a request`);
				assert.ok(
					first.prompt.texts.join('\n').includes(`<attachment kind="file" source="hello.ts">\n${hello}`),
					`${protocol}: hello.ts attached in the first request`,
				);
			}
		} finally {
			await team.close();
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('runs beside a run already going: its answer comes while the other run goes on', async () => {
		await useConfig(join(fixtures, 'slow-team.yaml'));
		const running = api.runs.start({ question: 'a slow question', kind: 'ask' });
		await until('the slow run to run', () => api.runs.active().find((run) => run.phase === 'running'));
		// The slow run's team is resolved: the tool's run gets the quick team.
		await useConfig(join(fixtures, 'lm-tool-team.yaml'));
		const result = await vscode.lm.invokeTool(toolName, {
			input: { question: 'How should we document this project?' },
			toolInvocationToken: undefined,
		});
		assert.match(toolText(result), /Vote: (planner|reviewer) won with 2 of 2 votes/);
		assert.deepEqual(
			api.runs.active().map((run) => `${run.request.question}: ${run.phase}`),
			['a slow question: running'],
			'the first run goes on',
		);
		api.runs.cancel();
		await running;
	});

	it('cancels its run when the invocation token is cancelled', async () => {
		await useConfig(join(fixtures, 'slow-team.yaml'));
		const tokens = new vscode.CancellationTokenSource();
		const previous = api.lastState()?.runId;
		const invocation = vscode.lm.invokeTool(
			toolName,
			{ input: { question: 'a slow question' }, toolInvocationToken: undefined },
			tokens.token,
		);
		// Cancelled once the run has really started (its first event), not while the team resolves.
		const runId = await until('the tool run to start', () => {
			const id = api.lastState()?.runId;
			return id && id !== previous ? id : undefined;
		});
		tokens.cancel();
		const text = await Promise.resolve(invocation).then(
			toolText,
			(error: unknown) => `threw: ${String(error)}`,
		);
		await until('the run to end', () => !api.runs.isRunning);
		assert.equal(api.lastState()?.runId, runId);
		assert.equal(api.lastState()?.status, 'cancelled');
		// VS Code rejects a cancelled invocation itself ("Canceled"); a tool that got there first says so.
		assert.match(text, /cancel/i);
		tokens.dispose();
	});

	it('returns a clear error for a file that cannot be attached, and no run starts', async () => {
		await useConfig(join(fixtures, 'team.yaml'));
		const root = workspaceRoot();
		const runs = () => readdirSync(join(root, '.massgen', 'runs')).length;
		const before = runs();
		const result = await vscode.lm.invokeTool(toolName, {
			input: { question: 'What is in here?', files: ['does/not/exist.md'] },
			toolInvocationToken: undefined,
		});
		assert.match(
			toolText(result),
			/^Error: the MassGen run did not start: cannot attach 'does\/not\/exist\.md': no such file/,
		);
		assert.equal(runs(), before, 'no run directory was created');
	});

	it('returns what is wrong with a broken team config, and no run starts', async () => {
		await useConfig(join(fixtures, 'broken.yaml'));
		const root = workspaceRoot();
		const runs = () => readdirSync(join(root, '.massgen', 'runs')).length;
		const before = runs();
		const result = await vscode.lm.invokeTool(toolName, {
			input: { question: 'Will not run' },
			toolInvocationToken: undefined,
		});
		assert.match(
			toolText(result),
			/^Error: the MassGen run did not start: the team config broken\.yaml has errors: .+ \(broken\.yaml:\d+:\d+\) \(and 2 more; see Problems\)\.$/,
		);
		assert.equal(runs(), before, 'no run directory was created');
	});

	it("returns the core's reason for a secret file (.env), and no run starts", async () => {
		await useConfig(join(fixtures, 'team.yaml'));
		const root = workspaceRoot();
		const dir = mkdtempSync(join(root, 'lm-secret-'));
		const name = dir.slice(root.length + 1);
		writeFileSync(join(dir, '.env'), 'TOKEN=zz-lm-tool-secret\n');
		try {
			const runs = () => readdirSync(join(root, '.massgen', 'runs')).length;
			const before = runs();
			const result = await vscode.lm.invokeTool(toolName, {
				input: { question: 'What is in here?', files: [`${name}/.env`] },
				toolInvocationToken: undefined,
			});
			const text = toolText(result);
			assert.ok(
				text.startsWith(
					`Error: the MassGen run did not start: cannot attach '${name}/.env': refused: '${name}/.env' is a secret path (matches '.env*')`,
				),
				text,
			);
			assert.ok(!text.includes('zz-lm-tool-secret'));
			assert.equal(runs(), before, 'no run directory was created');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
