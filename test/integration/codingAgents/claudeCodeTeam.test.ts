import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { runCli } from '../cli/cliProcess.js';
import { readResult, runDir } from '../../support/runDir.js';

const key = 'loopback-anthropic-key';

/** Every file of the workspace (outside `.massgen/`) by path → sha256. */
function hashes(root: string, folder = root, found: Record<string, string> = {}): Record<string, string> {
	for (const entry of readdirSync(folder, { withFileTypes: true })) {
		const full = join(folder, entry.name);
		if (entry.isDirectory()) {
			if (entry.name !== '.massgen') hashes(root, full, found);
		} else {
			found[full.slice(root.length + 1)] = createHash('sha256').update(readFileSync(full)).digest('hex');
		}
	}
	return found;
}

interface Change {
	readonly path: string;
}

/** The parts of `result.json` these tests read. */
interface Result {
	readonly status: string;
	readonly winner: { readonly agentId: string };
	readonly answerChanges: readonly { readonly agentId: string; readonly changes: readonly Change[] }[];
	readonly changes: readonly Change[];
	readonly votes: readonly { readonly voter: string }[];
	readonly usage: readonly { readonly agentId: string }[];
}

function teamYaml(api: LoopbackProvider, claude: LoopbackProvider, extra: string[] = []): string {
	return [
		'agents:',
		'  - id: api_agent',
		'    backend:',
		'      type: claude',
		'      model: claude-sonnet-4-5',
		`      base_url: ${api.baseUrl}`,
		'  - id: coder',
		'    backend:',
		'      type: claude_code',
		'      model: claude-sonnet-4-5',
		`      base_url: ${claude.baseUrl}`,
		...extra,
		'',
	].join('\n');
}

/**
 * Issue 14: a `claude_code` member takes part in a run through `dist/cli.js` — the real Claude
 * Code CLI (from the pinned SDK) against a loopback Anthropic server, next to an API agent on
 * another one. Its own agent loop edits files in its private folder and calls our workflow tools.
 */
describe('a claude_code agent in a team (dist/cli.js)', () => {
	let api: LoopbackProvider;
	let claude: LoopbackProvider;
	beforeEach(async () => {
		api = await startLoopbackProvider('anthropic', { auto: { name: 'api' } });
		claude = await startLoopbackProvider('anthropic', { auto: { name: 'claude' } });
	});
	afterEach(async () => {
		await api.close();
		await claude.close();
	});

	it("converges with the coding agent's edit as its answer's change, the workspace untouched", async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		writeFileSync(join(root, 'team.yaml'), teamYaml(api, claude));
		const before = hashes(root);
		// The run's own temp folder: the coding agent's private folder is made there.
		const temp = makeWorkspaceDir();
		claude.say({
			toolCalls: [
				{ id: 'toolu_w', name: 'Write', arguments: { file_path: 'hello.txt', content: 'hello\n' } },
			],
			usage: { input: 40, output: 9 },
		});
		claude.say({
			toolCalls: [
				{ id: 'toolu_a', name: 'mcp__massgen__new_answer', arguments: { content: 'Added hello.txt' } },
			],
			usage: { input: 60, output: 7 },
		});
		// An id outside the run reaches our check (the SDK's enum check would answer in its own words).
		const vote = (id: string, agentId: string) => ({
			toolCalls: [
				{ id, name: 'mcp__massgen__vote', arguments: { agent_id: agentId, reason: 'it is complete' } },
			],
			usage: { input: 80, output: 7 },
		});
		claude.say(vote('toolu_bad', 'agent9'));
		claude.say(vote('toolu_v', 'agent1'));
		const run = await runCli(
			['run', '--trust-workspace', '--config', join(root, 'team.yaml'), 'Add a greeting file.'],
			{
				cwd: root,
				env: { ANTHROPIC_API_KEY: key, TMPDIR: temp },
			},
		);
		expect(run.stderr).not.toContain(key);
		expect(run.code).toBe(0);
		const result = readResult<Result>(runDir(root));
		expect(result.status).toBe('completed');
		expect(claude.pending()).toBe(0);
		// The refused vote's error went back into the same CLI turn, in our words (the CLI appends a reminder).
		expect(claude.requests[3]!.prompt.lastToolResult).toMatch(
			/^Invalid agent_id 'agent9'\. Valid ids: agent[12], agent[12]\.\n/,
		);
		const coderAnswer = result.answerChanges.find((set) => set.agentId === 'coder');
		expect(coderAnswer?.changes).toEqual([
			{ path: 'hello.txt', kind: 'add', baseHash: null, base: null, content: 'hello\n' },
		]);
		if (result.winner.agentId === 'coder') {
			expect(result.changes.map((change) => change.path)).toEqual(['hello.txt']);
		}
		expect(result.votes.map((vote) => vote.voter).sort()).toEqual(['api_agent', 'coder']);
		const usage = result.usage.find((entry) => entry.agentId === 'coder');
		// Every scripted reply's tokens, from the model's stream (message_start, message_delta); as the
		// winner it also presents (one auto-agent reply: 120 in, 30 out).
		const presented = result.winner.agentId === 'coder' ? 1 : 0;
		expect(usage).toMatchObject({
			calls: 3 + presented,
			inputTokens: 40 + 60 + 80 + 80 + 120 * presented,
			outputTokens: 9 + 7 + 7 + 7 + 30 * presented,
		});
		// Nothing reached the workspace: the edit lives in the answer until the user accepts it.
		expect(hashes(root)).toEqual({ ...before });
		// The CLI worked in its private folder, never in the workspace.
		const system = claude.requests[0]!.prompt.system;
		expect(system).not.toContain(root);
		// It worked in a private folder in the run's temp folder, which ends with the run (ChatModel.close).
		expect(claude.requests[0]!.rawBody).toContain(join(temp, 'massgen-cmd-cc-'));
		expect(readdirSync(temp).filter((name) => name.startsWith('massgen-cmd-cc-'))).toEqual([]);
	});
});
