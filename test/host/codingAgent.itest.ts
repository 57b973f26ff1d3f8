// In-host (docs/coding-agents.md): a claude_code member in a team run from the editor — the real Claude Code
// CLI (the pinned SDK's binary) against a loopback Anthropic server, beside an API agent — through the
// extension's own run controller and change review: its Write is its answer's change, nothing is
// on disk before Accept, and its private folder is gone when the run ends.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { startLoopbackProvider, type LoopbackProvider } from '../servers/loopbackProvider';
import { until, useConfig, workspaceRoot } from './hostWaits';

const file = 'coder-greeting.txt';

describe('A claude_code agent in the editor (in VS Code, real CLI, loopback server)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let apiServer: LoopbackProvider;
	let claude: LoopbackProvider;
	let configDir: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		apiServer = await startLoopbackProvider('anthropic', { auto: { name: 'api' } });
		claude = await startLoopbackProvider('anthropic', { auto: { name: 'claude' } });
		configDir = mkdtempSync(join(tmpdir(), 'massgen-coder-'));
		const agent = (id: string, type: string, server: LoopbackProvider) => [
			`  - id: ${id}`,
			'    backend:',
			`      type: ${type}`,
			'      model: claude-sonnet-4-5',
			'      api_key: loopback-anthropic-key',
			`      base_url: ${server.baseUrl}`,
		];
		writeFileSync(
			join(configDir, 'team.yaml'),
			[
				'agents:',
				...agent('api_agent', 'claude', apiServer),
				...agent('coder', 'claude_code', claude),
				'',
			].join('\n'),
		);
		await useConfig(join(configDir, 'team.yaml'));
	});

	after(async () => {
		for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
		await useConfig(undefined);
		await apiServer?.close();
		await claude?.close();
		rmSync(configDir, { recursive: true, force: true });
	});

	it("its Write becomes its answer's change under review; nothing is written before Accept", async () => {
		claude.say({
			toolCalls: [{ id: 'toolu_w', name: 'Write', arguments: { file_path: file, content: 'hi\n' } }],
		});
		claude.say({
			toolCalls: [
				{ id: 'toolu_a', name: 'mcp__massgen__new_answer', arguments: { content: `Added ${file}` } },
			],
		});
		for (const id of ['agent1', 'agent2']) {
			claude.say({
				toolCalls: [
					{ id: `toolu_${id}`, name: 'mcp__massgen__vote', arguments: { agent_id: id, reason: 'fine' } },
				],
			});
		}
		const run = await api.runs.start({ question: 'Add a greeting file.', kind: 'ask' });
		assert.ok(run, 'the run started');
		assert.equal(run.result.status, 'completed', run.result.error);
		const coder = run.result.answerChanges?.find((set) => set.agentId === 'coder');
		assert.deepEqual(
			coder?.changes.map((change) => [change.path, change.kind, change.content]),
			[[file, 'add', 'hi\n']],
		);
		assert.ok(claude.requests.length >= 3, `the CLI made ${claude.requests.length} request(s)`);
		assert.equal(existsSync(join(workspaceRoot(), file)), false, 'nothing written before Accept');
		if (run.result.winner?.agentId === 'coder') {
			const view = await until('the change set', () => api.changes.changeSet(run.result.runId) ?? undefined);
			assert.deepEqual(
				view.files.map((entry) => entry.path),
				[file],
			);
		}
	});

	it('massgen.codingAgents.claudeCodePath (user setting) names the CLI; a missing one leaves the agent out, the run goes on', async () => {
		const settings = vscode.workspace.getConfiguration('massgen');
		await settings.update(
			'codingAgents.claudeCodePath',
			'/nonexistent/claude',
			vscode.ConfigurationTarget.Global,
		);
		const team = join(configDir, 'missing-cli.yaml');
		writeFileSync(
			team,
			[
				'agents:',
				'  - id: planner',
				'    backend:',
				'      type: scripted',
				'      script:',
				'        coordination:',
				'          - answer: Write a CONTRIBUTING guide.',
				'          - vote: first',
				'            reason: it covers setup',
				'  - id: coder',
				'    backend: { type: claude_code, api_key: loopback-anthropic-key }',
				'',
			].join('\n'),
		);
		await useConfig(team);
		try {
			const run = await api.runs.start({ question: 'How should we document this?', kind: 'ask' });
			assert.ok(run, 'the run started');
			assert.equal(run.result.status, 'completed', run.result.error);
			assert.equal(run.result.winner?.agentId, 'planner');
			const killed = readFileSync(join(run.runDir, 'events.jsonl'), 'utf8')
				.trim()
				.split('\n')
				.map((line) => JSON.parse(line) as { type: string; agentId?: string; reason?: string })
				.find((event) => event.type === 'agent-killed' && event.agentId === 'coder');
			assert.match(killed?.reason ?? '', /Claude Code CLI not found .*\/nonexistent\/claude/);
		} finally {
			await settings.update('codingAgents.claudeCodePath', undefined, vscode.ConfigurationTarget.Global);
			await useConfig(join(configDir, 'team.yaml'));
		}
	});
});
