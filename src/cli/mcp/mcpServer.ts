/**
 * The team as MCP tools (docs/cli.md#massgen-mcp): ask_team, review_changes, list_runs, show_run.
 * Each call answers with a result or a tool error (`isError`), never a protocol error for what a
 * caller, a workspace or a model can cause; every text passes the redactor before it leaves.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { version } from '../../../package.json';
import type { RunEvent } from '../../contract/runEvents.js';
import { safeRunDirPattern } from '../../contract/runId.js';
import { progressLine } from './progressLine.js';
import { listRuns, showRun } from './runTools.js';
import { askTeam, reviewChanges, type TeamCaller } from './teamTools.js';
import { toolError } from './toolResult.js';

export interface MassgenMcpDeps {
	/** The workspace folder (resolved): the agents read it, nothing writes it. */
	readonly root: string;
	readonly teamCall: TeamCaller;
	/** Masks secrets in every text the server sends or logs. */
	readonly redact: (text: string) => string;
	/** One line to stderr. */
	readonly log: (line: string) => void;
	readonly now?: () => Date;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function createMassgenMcpServer(deps: MassgenMcpDeps): McpServer {
	const server = new McpServer(
		{ name: 'massgen', title: 'MassGen team', version },
		{
			instructions:
				'A team of AI agents (several models) that each answer, read each other’s answers and vote; the most-voted agent presents the final answer. Use ask_team for a second opinion or a hard question about this workspace, review_changes to have the team review a git diff. The team never writes files: proposed changes come back as a diff for you to apply.',
		},
	);
	const guarded =
		<A>(name: string, run: (args: A, extra: Extra) => Promise<CallToolResult>) =>
		async (args: A, extra: Extra): Promise<CallToolResult> => {
			try {
				return redacted(await run(args, extra), deps.redact);
			} catch (error) {
				const message = deps.redact((error as Error).message ?? String(error));
				deps.log(`${name}: internal error: ${message}`);
				return toolError(`${name} failed: ${message}`);
			}
		};
	const teamContext = (extra: Extra) => ({
		root: deps.root,
		teamCall: deps.teamCall,
		signal: extra.signal,
		onEvent: progressReporter(extra, deps),
	});

	server.registerTool(
		'ask_team',
		{
			title: 'Ask the MassGen team',
			description:
				'Ask a team of AI agents (different models) a question about this workspace. Each agent answers on its own, reads the others’ answers, and votes; the most-voted agent presents the final answer. Returns the final answer, how the team voted, the run id, and any file changes the team proposes as a unified diff. The diff is NOT applied: apply it with your own edit tools if you agree. Takes minutes; sends progress notifications while the team works. Use for hard questions, design decisions, or a second opinion — not for quick lookups.',
			inputSchema: {
				question: z
					.string()
					.min(1)
					.max(100_000)
					.describe('The question or task for the team, with everything it needs to know.'),
				files: z
					.array(z.string().max(4096))
					.max(50)
					.optional()
					.describe(
						'Files or folders inside the workspace to give every agent (paths relative to the workspace). Secret files (.env, keys) and paths outside the workspace are refused.',
					),
			},
			annotations: { readOnlyHint: true, openWorldHint: true },
		},
		guarded('ask_team', (args, extra) => askTeam(teamContext(extra), args.question, args.files ?? [])),
	);

	server.registerTool(
		'review_changes',
		{
			title: 'Have the MassGen team review changes',
			description:
				'Have the team of AI agents review a git diff of this workspace for bugs, security problems and fragile code. Returns the findings by file and line, each with how many agents raised it, and the run id. Nothing is written.',
			inputSchema: {
				diff: z
					.string()
					.max(200)
					.optional()
					.describe(
						'"working" (uncommitted changes, the default), "staged" (the index), or "A..B" (from commit A to commit B, e.g. "main..HEAD").',
					),
			},
			annotations: { readOnlyHint: true, openWorldHint: true },
		},
		guarded('review_changes', (args, extra) => reviewChanges(teamContext(extra), args.diff)),
	);

	server.registerTool(
		'list_runs',
		{
			title: 'List MassGen runs',
			description:
				'The team’s recent runs in this workspace, newest first: run id, age, outcome, winner, proposed changes, question. show_run gives one whole.',
			inputSchema: {
				limit: z.number().int().min(1).max(200).optional().describe('How many runs (default 20).'),
			},
			annotations: { readOnlyHint: true },
		},
		guarded('list_runs', (args) => listRuns(deps.root, args.limit ?? 20, deps.now?.() ?? new Date())),
	);

	server.registerTool(
		'show_run',
		{
			title: 'Show a MassGen run',
			description:
				'One run of the team: its question, winner and votes, final answer, and proposed changes as a unified diff.',
			inputSchema: {
				run_id: z
					.string()
					.max(128)
					.regex(safeRunDirPattern, 'a run id as list_runs shows it (e.g. 20260101-120000-abcd)')
					.describe('A run id from list_runs or ask_team.'),
			},
			annotations: { readOnlyHint: true },
		},
		guarded('show_run', (args) => showRun(deps.root, args.run_id)),
	);
	return server;
}

/** Progress notifications for a call whose client sent a progress token; nothing otherwise. */
function progressReporter(extra: Extra, deps: MassgenMcpDeps): (event: RunEvent) => void {
	const token = extra._meta?.progressToken;
	let progress = 0;
	return (event) => {
		const line = progressLine(event);
		if (line === null) return;
		deps.log(line);
		if (token === undefined || extra.signal.aborted) return;
		progress += 1;
		void extra
			.sendNotification({
				method: 'notifications/progress',
				params: { progressToken: token, progress, message: deps.redact(line) },
			})
			.catch(() => undefined);
	};
}

function redacted(result: CallToolResult, redact: (text: string) => string): CallToolResult {
	return {
		...result,
		content: result.content.map((block) =>
			block.type === 'text' ? { ...block, text: redact(block.text) } : block,
		),
	};
}
