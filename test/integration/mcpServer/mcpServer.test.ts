/**
 * `massgen mcp` through the official MCP SDK client over stdio (`dist/cli.js`), on the four-server
 * loopback team (each agent through its own provider SDK): the tools and their schemas, ask_team's
 * answer, votes, run id and diff with the workspace untouched, progress notifications, cancellation,
 * and errors as tool errors with the server still answering.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { hashTree, makeWorkspaceDir } from '../../support/tempTree.js';
import { readResult, runDirs } from '../../support/runDir.js';
import { waitFor } from '../../support/waitFor.js';
import { connectMcp, resultText, type McpConnection } from './mcpClient.js';

const untouched = (rel: string) => rel === '.massgen';

describe('massgen mcp (official SDK client over stdio)', () => {
	let team: LoopbackTeam;
	let root: string;
	let mcp: McpConnection;
	beforeAll(async () => {
		team = await startLoopbackTeam({
			auto: {
				presentationWrites: [
					{ path: 'src/greet.ts', content: 'export const greet = (name: string) => `Hello, ${name}!`;\n' },
				],
			},
		});
		root = makeWorkspaceDir({
			'src/greet.ts': 'export const greet = (name) => "hi " + name;\n',
			'README.md': '# demo\n',
		});
		const config = join(root, '..', `${root.split('/').pop()}-team.yaml`);
		writeFileSync(config, team.configYaml());
		mcp = await connectMcp(['--workspace', root, '--config', config]);
	});
	afterAll(async () => {
		await mcp?.close();
		await team?.close();
	});

	it('lists its four tools with their input schemas', async () => {
		const { tools } = await mcp.client.listTools();
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
		expect(Object.keys(byName).sort()).toEqual(['ask_team', 'list_runs', 'review_changes', 'show_run']);
		expect(byName['ask_team']!.inputSchema.required).toEqual(['question']);
		expect(Object.keys(byName['ask_team']!.inputSchema.properties ?? {}).sort()).toEqual([
			'files',
			'question',
		]);
		expect(byName['ask_team']!.description).toMatch(/NOT applied/);
		expect(byName['review_changes']!.inputSchema.properties).toHaveProperty('diff');
		expect(byName['show_run']!.inputSchema.required).toEqual(['run_id']);
	});

	it('ask_team returns the answer, the votes, the run id and the diff, with progress, and writes nothing', async () => {
		const before = hashTree(root, untouched);
		const progress: string[] = [];
		const result = (await mcp.client.callTool(
			{
				name: 'ask_team',
				arguments: { question: 'Make greet type-safe and friendlier.', files: ['src/greet.ts'] },
			},
			undefined,
			{ onprogress: (p) => progress.push(p.message ?? ''), timeout: 60_000 },
		)) as CallToolResult;
		const text = resultText(result);
		expect(result.isError).toBeFalsy();
		expect(text).toMatch(/Final answer:\nFinal answer \(presented by the \w+ agent\)/);
		const runId = /run id: (\S+)/.exec(text)?.[1];
		expect(runId).toMatch(/^\d{8}-\d{6}-[0-9a-z]{4}$/);
		expect(text).toMatch(/winner: \w+_agent \(agent\d\.\d\), \d of 4 vote\(s\)/);
		expect(text).toContain('+export const greet = (name: string) => `Hello, ${name}!`;');
		expect(text).toContain('-export const greet = (name) => "hi " + name;');
		expect(text).toContain('NOT applied');
		// Progress: answers, votes, the presenter, as short lines without model text.
		expect(progress.some((line) => / answered \(agent\d\.\d\)$/.test(line))).toBe(true);
		expect(progress.some((line) => / voted for \w+_agent \(agent\d\.\d\)$/.test(line))).toBe(true);
		expect(progress.some((line) => / is presenting the final answer$/.test(line))).toBe(true);
		// Nothing written: the file is as it was, the run's changes wait in its directory.
		expect(hashTree(root, untouched)).toBe(before);
		expect(readFileSync(join(root, 'src/greet.ts'), 'utf8')).toContain('"hi "');
		const dir = runDirs(root).find((d) => d.endsWith(runId!))!;
		expect(readResult<{ status: string; attachments: { source: string }[] }>(dir)).toMatchObject({
			status: 'completed',
			attachments: [{ source: 'src/greet.ts' }],
		});
		// Every server's SDK saw the attached file's text.
		for (const server of Object.values(team.servers)) {
			expect(server.requests.some((r) => r.rawBody.includes('\\"hi \\" + name'))).toBe(true);
		}

		// list_runs and show_run read the same run back.
		const listed = resultText(await mcp.client.callTool({ name: 'list_runs', arguments: {} }));
		expect(listed).toContain(`- ${runId} (`);
		expect(listed).toMatch(/completed, winner \w+_agent, changes: 1 file\(s\), pending/);
		const shown = resultText(await mcp.client.callTool({ name: 'show_run', arguments: { run_id: runId } }));
		expect(shown).toContain('question: Make greet type-safe and friendlier.');
		expect(shown).toContain('+export const greet = (name: string)');
	}, 90_000);

	it('cancelling the request stops the run (the held model call is closed) and the server keeps answering', async () => {
		// The chat server holds its next reply after the first event, until the client closes it.
		team.servers.chat.enqueue({ turn: { text: 'thinking', toolCalls: [] }, stallAfter: 1 });
		const held = team.servers.chat.requests.length;
		// Run ids sort by second, then by a random suffix: the earlier tests' runs may share the second.
		const earlier = new Set(runDirs(root));
		const controller = new AbortController();
		const call = mcp.client.callTool(
			{ name: 'ask_team', arguments: { question: 'A question to cancel.' } },
			undefined,
			{
				signal: controller.signal,
				timeout: 60_000,
			},
		);
		await waitFor(() => team.servers.chat.requests.length > held, 'the chat agent to call its model');
		const stalled = team.servers.chat.requests[held]!;
		controller.abort('the caller changed its mind');
		await expect(call).rejects.toThrow(/changed its mind/);
		await stalled.settled;
		expect(stalled.closedByClient).toBe(true);
		const made = () => runDirs(root).filter((dir) => !earlier.has(dir));
		await waitFor(
			() => made().length === 1 && readResultSafe(made()[0]!) === 'cancelled',
			'the run to end cancelled',
		);
		const listed = resultText(await mcp.client.callTool({ name: 'list_runs', arguments: {} }));
		expect(listed).toMatch(/cancelled, .*"A question to cancel\."/);
	}, 90_000);

	it('answers bad arguments with tool errors, and keeps serving', async () => {
		const bad = async (name: string, args: Record<string, unknown>) => {
			const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
			expect(result.isError).toBe(true);
			return resultText(result);
		};
		expect(await bad('show_run', { run_id: '../x' })).toMatch(/run id/);
		expect(await bad('show_run', { run_id: '20990101-000000-zzzz' })).toMatch(/list_runs lists the runs/);
		expect(await bad('ask_team', { question: 'q', files: ['../../etc/passwd'] })).toMatch(
			/outside the workspace/,
		);
		expect(await bad('ask_team', { question: 'q', files: ['/etc/passwd'] })).toMatch(/outside the workspace/);
		expect(await bad('ask_team', { question: 'q', files: ['missing.ts'] })).toMatch(/no such file/);
		expect(await bad('ask_team', { files: [] })).toMatch(/question/);
		expect(await bad('review_changes', { diff: '--output=/tmp/x' })).toMatch(
			/"working", "staged" or a range/,
		);
		expect(await bad('review_changes', {})).toMatch(/not in a git repository/);
		expect(await mcp.client.ping()).toEqual({});
	});

	it('a key in the server’s environment never reaches the client or its log, even when the team repeats it', async () => {
		const key = 'sk-proj-mcpRedaction4f9c2b7e1d8a6035';
		const config = join(root, '..', `${root.split('/').pop()}-team.yaml`);
		const keyed = await connectMcp(['--workspace', root, '--config', config], { OPENAI_API_KEY: key });
		try {
			const asked = resultText(
				await keyed.client.callTool(
					{ name: 'ask_team', arguments: { question: `Is ${key} a valid key?` } },
					undefined,
					{ timeout: 60_000 },
				),
			);
			expect(asked).toMatch(
				/Final answer:\nFinal answer \(presented by the \w+ agent\): Is \S+ a valid key\?/,
			);
			const runId = /run id: (\S+)/.exec(asked)![1]!;
			const shown = resultText(
				await keyed.client.callTool({ name: 'show_run', arguments: { run_id: runId } }),
			);
			const listed = resultText(await keyed.client.callTool({ name: 'list_runs', arguments: {} }));
			for (const text of [asked, shown, listed, keyed.stderr()]) expect(text).not.toContain(key);
			// The question the team was sent had it (the models need what the user wrote).
			expect(team.servers.chat.requests.some((r) => r.rawBody.includes(key))).toBe(true);
		} finally {
			await keyed.close();
		}
	}, 90_000);
});

function readResultSafe(dir: string): string | undefined {
	try {
		return readResult<{ status: string }>(dir).status;
	} catch {
		return undefined;
	}
}
