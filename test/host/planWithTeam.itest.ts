// In-host: Plan with Team (docs/editor.md, Plans) on a loopback team (real SDKs against the loopback
// servers), each agent scripted to answer with its own plan. The palette command's run is read-only
// (no write tool or run_command in any request the servers saw), leaves the workspace as it was
// except .massgen/, and saves .massgen/plans/<run id>.md with each step marked by how many agents'
// plans had it; the document opens; its CodeLens offers the runner-up plans and Show Other Plans
// opens one read-only. `@massgen /plan` makes a plan the same way.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { writeToolNames } from '../../src/core/tools/toolRole';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { ChatChanges } from '../../src/vscode/chat/changeFollowups';
import { handleChatRequest, type ParticipantStream } from '../../src/vscode/chat/participant';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { PlanOutcome } from '../../src/vscode/plans/planDocuments';
import { otherPlanScheme } from '../../src/vscode/plans/otherPlans';
import type { RunStarter } from '../../src/vscode/run/runStarter';
import { hashTree } from '../support/tempTree';
import type { PromptView } from '../servers/types';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { endRunAndConfig, until, useConfig, workspaceRoot } from './hostWaits';

const task = 'Add a --verbose flag to the CLI';
/**
 * Each agent's plan, by its model: "Parse the flag" is in all three, "Print the extra lines" in two,
 * the third steps in one each (their titles and files share nothing with another step).
 */
const plans: Record<string, string> = {
	'gpt-5-mini': [
		'# Add a --verbose flag',
		'',
		'1. **Parse the flag**',
		'   - Files: `src/args.ts`',
		'   - Risk: low',
		'   - Verify: `npm test -- args`',
		'2. **Print the extra lines**',
		'   - Files: `src/log.ts`',
		'   - Risk: medium',
		'   - Verify: run with --verbose',
		'3. **Describe usage in the README**',
		'   - Files: `README.md`',
		'   - Risk: low',
		'   - Verify: read it',
	].join('\n'),
	'claude-haiku-4-5': [
		'# Verbose output',
		'',
		'1. **Parse the flag**',
		'   - Files: `src/args.ts`',
		'   - Risk: low',
		'   - Verify: `npm test -- args`',
		'2. **Print the extra lines**',
		'   - Files: `src/log.ts`',
		'   - Risk: low',
		'   - Verify: run with --verbose',
	].join('\n'),
	'gemini-2.5-flash': [
		'# A verbose mode',
		'',
		'1. **Parse the flag**',
		'   - Files: `src/args.ts`',
		'   - Risk: low',
		'   - Verify: `npm test -- args`',
		'2. **Write unit tests**',
		'   - Files: `test/args.test.ts`',
		'   - Risk: low',
		'   - Verify: `npm test`',
	].join('\n'),
};
const stepsOf = (model: string) => [...plans[model]!.matchAll(/\*\*(.+?)\*\*/g)].map((m) => m[1]!);
const models = Object.keys(plans);

type PartKind = 'markdown' | 'progress' | 'button' | 'anchor' | 'reference';

/** Records what the chat handler streams, in order. */
function recordingStream() {
	const parts: { kind: PartKind; value: string }[] = [];
	const link = (value: vscode.Uri | vscode.Location) =>
		vscode.workspace.asRelativePath(value instanceof vscode.Location ? value.uri : value, false);
	const stream: ParticipantStream = {
		markdown: (value) =>
			void parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value }),
		progress: (value) => void parts.push({ kind: 'progress', value }),
		button: (command) => void parts.push({ kind: 'button', value: command.command }),
		anchor: (value) => void parts.push({ kind: 'anchor', value: link(value) }),
		reference: (value) => void parts.push({ kind: 'reference', value: link(value as vscode.Uri) }),
	};
	const of = (kind: PartKind) => parts.filter((part) => part.kind === kind).map((part) => part.value);
	return { stream, of };
}

describe('Plan with Team: a read-only plan run, the plan document and the runner-up plans (loopback team)', function () {
	this.timeout(120_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let dir: string;
	const root = () => workspaceRoot();
	const outsideMassgen = () => hashTree(root(), (rel) => rel === '.massgen');
	const requestsSince = (since: Record<string, number>) =>
		(['responses', 'anthropic', 'gemini'] as const).flatMap((protocol) =>
			team.servers[protocol].requests.slice(since[protocol]).filter((request) => request.method === 'POST'),
		);
	const counts = () => ({
		responses: team.servers.responses.requests.length,
		anthropic: team.servers.anthropic.requests.length,
		gemini: team.servers.gemini.requests.length,
	});
	/** The marks the document must carry for `winner`'s plan: how many of the three plans have each step. */
	const expectedMarks = (winner: string) =>
		stepsOf(winner).map((title) => {
			const agents = models.filter((model) => stepsOf(model).includes(title)).length;
			return `- [ ] **${title}** · ${agents === 1 ? 'only the winner' : `${agents} of 3`}`;
		});

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		team = await startLoopbackTeam({
			auto: {
				answer: (prompt: PromptView) => plans[prompt.model] ?? 'no plan',
				presentation: (prompt: PromptView) => plans[prompt.model] ?? 'no plan',
			},
		});
		dir = mkdtempSync(join(tmpdir(), 'massgen-plan-'));
		writeFileSync(join(dir, 'team.yaml'), stringify({ agents: team.agents.slice(0, 3) }));
		await useConfig(join(dir, 'team.yaml'));
	});

	afterEach(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	after(async () => {
		await endRunAndConfig(api);
		rmSync(join(root(), '.massgen', 'plans'), { recursive: true, force: true });
		await team.close();
		rmSync(dir, { recursive: true, force: true });
	});

	/** The model of the agent `agentId` of the loopback team. */
	const modelOf = (agentId: string) => team.agents.find((agent) => agent.id === agentId)!.backend.model;

	it('the palette command plans read-only, saves the plan with agreement marks from the agents’ plans, and opens it; Other plans opens a runner-up’s', async () => {
		const before = outsideMassgen();
		const since = counts();
		const outcome = await vscode.commands.executeCommand<PlanOutcome | undefined>(commandIds.planWithTeam, {
			task,
			depth: 'medium',
		});
		assert.ok(outcome && 'uri' in outcome, JSON.stringify(outcome));
		const runId = outcome.runId;
		assert.equal(outcome.uri.fsPath, join(root(), '.massgen', 'plans', `${runId}.md`));

		// Read-only: every request the servers saw offered read tools only.
		const requests = requestsSince(since);
		assert.ok(requests.length >= 6, `${requests.length} model calls`);
		const offered = new Set(requests.flatMap((request) => request.prompt.tools.map((tool) => tool.name)));
		for (const name of [...writeToolNames, 'run_command']) {
			assert.ok(!offered.has(name), `${name} was offered`);
		}
		assert.ok(offered.has('read_file'), `read tools offered: ${[...offered].join(', ')}`);
		// Every agent was asked the task in the plan format.
		for (const model of models) {
			assert.ok(
				requests.some((request) => request.model === model && request.prompt.texts.join('\n').includes(task)),
				`${model} was asked the task`,
			);
		}
		assert.equal(outsideMassgen(), before, 'nothing outside .massgen/ was written');

		// The document: front matter naming the run, and each step marked from the three plans.
		const text = readFileSync(outcome.uri.fsPath, 'utf8');
		const result = JSON.parse(
			readFileSync(join(root(), '.massgen', 'runs', runId, 'result.json'), 'utf8'),
		) as {
			winner: { agentId: string } | null;
			changes: unknown[];
			plan?: unknown;
		};
		assert.ok(result.winner);
		assert.deepEqual(result.changes, [], 'a plan run proposes no changes');
		assert.deepEqual(result.plan, { kind: 'planning', planId: runId, depth: 'medium', task });
		assert.match(text, new RegExp(`^---\\n(?:.*\\n)*?run: ${runId}\\n`));
		const marks = text.split('\n').filter((line) => line.startsWith('- ['));
		assert.deepEqual(marks, expectedMarks(modelOf(result.winner.agentId)), text);
		assert.equal(api.changes.changeSet(runId), null, 'no change set to review');

		// The document is open in an editor.
		const editor = await until('the plan document in an editor', () =>
			vscode.window.visibleTextEditors.find((shown) => shown.document.uri.fsPath === outcome.uri.fsPath),
		);
		assert.equal(editor.document.languageId, 'markdown');

		// Its CodeLens names the two runner-up plans; Show Other Plans picks one and opens it read-only.
		const lens = await poll('the Other plans lens', async () => {
			const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
				'vscode.executeCodeLensProvider',
				outcome.uri,
			);
			return lenses.find((candidate) => candidate.command?.command === commandIds.showOtherPlans);
		});
		assert.equal(lens.command?.title, 'Other plans (2)');
		assert.equal(lens.range.start.line, 0);
		const shown = vscode.commands.executeCommand<vscode.Uri | undefined>(
			lens.command!.command,
			...(lens.command!.arguments ?? []),
		);
		// Two runner-ups: the pick comes first; its first row is taken.
		let opened: vscode.Uri | undefined | 'pending' = 'pending';
		void shown.then((uri) => (opened = uri));
		await poll('the pick answered', async () => {
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			return opened !== 'pending';
		});
		const other = await shown;
		assert.ok(other);
		assert.equal(other.scheme, otherPlanScheme);
		const otherText = (await vscode.workspace.openTextDocument(other)).getText();
		const runnerUps = models.filter((model) => model !== modelOf(result.winner!.agentId));
		assert.ok(
			runnerUps.some((model) => otherText.includes(plans[model]!)),
			`a runner-up's plan: ${otherText}`,
		);
		assert.match(otherText, /^> A plan the team did not choose: /);
		assert.ok(
			vscode.window.visibleTextEditors.some(
				(shownEditor) => shownEditor.document.uri.toString() === other.toString(),
			),
			'opened in an editor',
		);
	});

	it('@massgen /plan makes a plan too: the chat shows its steps with their marks and links the document', async () => {
		const { stream, of } = recordingStream();
		const tokens = new vscode.CancellationTokenSource();
		const since = counts();
		const result = await handleChatRequest(
			{ prompt: task, command: 'plan', references: [] },
			{ history: [] },
			stream,
			tokens.token,
			{
				runs: api.runs as unknown as RunStarter,
				changes: api.changes as unknown as ChatChanges,
				planDocuments: api.planDocuments,
			},
		);
		const runId = (result.metadata as { runId?: string } | undefined)?.runId;
		assert.ok(runId, JSON.stringify(result));
		const outcome = await api.planDocuments.outcome(runId);
		assert.ok(outcome && 'uri' in outcome, JSON.stringify(outcome));
		const path = join(root(), '.massgen', 'plans', `${runId}.md`);
		assert.ok(existsSync(path));
		assert.deepEqual(of('anchor'), [`.massgen/plans/${runId}.md`]);
		const text = readFileSync(path, 'utf8');
		const { winner } = JSON.parse(
			readFileSync(join(root(), '.massgen', 'runs', runId, 'result.json'), 'utf8'),
		) as {
			winner: { agentId: string };
		};
		const marks = expectedMarks(modelOf(winner.agentId));
		assert.deepEqual(
			text.split('\n').filter((line) => line.startsWith('- [')),
			marks,
		);
		const markdown = of('markdown').join('');
		for (const mark of marks) assert.ok(markdown.includes(mark), `the chat shows ${mark}`);
		assert.ok(!markdown.includes('massgen: plan'), 'not the front matter');
		const offered = new Set(
			requestsSince(since).flatMap((request) => request.prompt.tools.map((tool) => tool.name)),
		);
		for (const name of [...writeToolNames, 'run_command']) {
			assert.ok(!offered.has(name), `${name} was offered`);
		}
	});
});

/** Polls an async probe every 50 ms until it returns a value; fails naming `what` after 20 s. */
async function poll<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
	const deadline = Date.now() + 20_000;
	for (;;) {
		const value = await probe();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}
