// In-host: the `@massgen` chat participant's handler with a recording response stream and the real
// run controller (code-server has no Copilot, so no Chat view sends it requests; see README).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds } from '../../src/vscode/common/commandIds';
import { chatFollowups, type ChatChanges } from '../../src/vscode/chat/changeFollowups';
import {
	handleChatRequest,
	type ParticipantDeps,
	type ParticipantStream,
} from '../../src/vscode/chat/participant';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { RunStarter } from '../../src/vscode/run/runStarter';
import { endRunAndConfig, nextFinish, snapshotFiles, until, useConfig } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';
// ChatResponseTurn's constructor is internal to the API typings; the extension host's class is used as is.
const Turn = vscode.ChatResponseTurn as unknown as new (
	response: unknown[],
	result: vscode.ChatResult,
	participant: string,
) => vscode.ChatResponseTurn;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x70, 0x69, 0x78]);

type PartKind = 'markdown' | 'progress' | 'button' | 'anchor' | 'reference';

/** `uri` or `uri#L3-L5` (1-based lines), relative to the workspace for file URIs. */
function linkText(value: vscode.Uri | vscode.Location, title?: string): string {
	const uri = value instanceof vscode.Location ? value.uri : value;
	const where =
		uri.scheme === 'file'
			? vscode.workspace.asRelativePath(uri, false)
			: `${uri.scheme}:${uri.path}?${uri.query}`;
	const lines =
		value instanceof vscode.Location ? `#L${value.range.start.line + 1}-L${value.range.end.line + 1}` : '';
	return `${where}${lines}${title === undefined ? '' : ` "${title}"`}`;
}

/** Records what the handler streams, in order. */
function recordingStream() {
	const parts: { kind: PartKind; value: string }[] = [];
	const stream: ParticipantStream = {
		markdown: (value) =>
			void parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value }),
		progress: (value) => void parts.push({ kind: 'progress', value }),
		button: (command) => void parts.push({ kind: 'button', value: command.command }),
		anchor: (value, title) => void parts.push({ kind: 'anchor', value: linkText(value, title) }),
		reference: (value) =>
			void parts.push({ kind: 'reference', value: linkText(value as vscode.Uri | vscode.Location) }),
	};
	const of = (kind: PartKind) => parts.filter((part) => part.kind === kind).map((part) => part.value);
	return { stream, of, parts };
}

function reference(value: unknown): vscode.ChatPromptReference {
	return { id: 'vscode.file', name: 'ref', value } as vscode.ChatPromptReference;
}

describe('MassGen in the Chat view: the @massgen participant handler (scripted teams)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let runs: RunStarter;
	let deps: ParticipantDeps;
	let fixtures: string;
	let root: vscode.Uri;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(extension);
		api = await extension.activate();
		// The real RunController (its live events are not part of the typed test API).
		runs = api.runs as unknown as RunStarter;
		// The real ChangeReview (its onDidAccept is not part of the typed test API).
		deps = { runs, changes: api.changes as unknown as ChatChanges, planDocuments: api.planDocuments };
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
		const folder = vscode.workspace.workspaceFolders?.[0];
		assert.ok(folder);
		root = folder.uri;
	});

	afterEach(async () => {
		await endRunAndConfig(api);
	});

	it('is contributed as @massgen with /review, /withModel, /plan, /changes and /accept', () => {
		const participants = vscode.extensions.getExtension(extensionId)?.packageJSON.contributes
			.chatParticipants as { id: string; name: string; commands: { name: string }[] }[];
		assert.deepEqual(
			participants.map((p) => [p.id, p.name, p.commands.map((c) => c.name)]),
			[['massgen.chat', 'massgen', ['review', 'withModel', 'plan', 'changes', 'accept']]],
		);
	});

	it('streams a line per phase, then the final answer, the vote and the buttons; references become attachments', async () => {
		await useConfig(join(fixtures, 'lm-tool-team.yaml'));
		const { stream, of } = recordingStream();
		const tokens = new vscode.CancellationTokenSource();
		const readme = vscode.Uri.joinPath(root, 'README.md');
		const hello = vscode.Uri.joinPath(root, 'hello.ts');
		const finished = nextFinish(api);
		const result = await handleChatRequest(
			{
				prompt: 'How should we document this project?',
				command: undefined,
				references: [reference(readme), reference(new vscode.Location(hello, new vscode.Range(0, 0, 1, 0)))],
			},
			{ history: [] },
			stream,
			tokens.token,
			deps,
		);
		const run = await finished;
		const state = api.lastState();
		assert.equal(state?.status, 'completed');
		assert.deepEqual(result.metadata, {
			runId: state?.runId,
			question: 'How should we document this project?',
		});
		const winner = state?.winner?.agentId;
		assert.ok(winner);

		const progress = of('progress');
		assert.equal(progress[0], '2 agents are answering…');
		assert.equal(progress.filter((line) => / voted for /.test(line)).length, 2);
		assert.equal(progress.at(-1), `${winner} won; presenting the final answer…`);
		const markdown = of('markdown').join('');
		assert.match(markdown, new RegExp(`${winner}'s presentation`));
		assert.match(markdown, new RegExp(`\\*\\*Vote:\\*\\* ${winner} won with 2 of 2 votes`));
		assert.match(markdown, /\*\*Proposed changes\*\* \(not applied\):\n- add \n/);
		// The new file's anchor is the winner's text (it is not in the workspace yet); no reference for it.
		assert.deepEqual(of('anchor'), [`massgen-change:/lm-tool/GUIDE.md?${state?.runId} "lm-tool/GUIDE.md"`]);
		assert.deepEqual(of('reference'), []);
		assert.deepEqual(of('button'), [commandIds.showPanel, commandIds.reviewChanges]);

		// The chat's references reached the run as attachments: the file, and the range's lines.
		const attached = run.result.attachments?.map(
			(a) => `${a.kind} ${a.source}${a.lines ? ` ${a.lines.start}-${a.lines.end}` : ''}`,
		);
		assert.deepEqual(attached, ['file README.md', 'file hello.ts 1-2']);
		tokens.dispose();
	});

	it('/review reviews the referenced file (a review run: findings become comment threads)', async () => {
		await useConfig(join(fixtures, 'team.yaml'));
		const { stream, of } = recordingStream();
		const tokens = new vscode.CancellationTokenSource();
		const finished = nextFinish(api);
		await handleChatRequest(
			{ prompt: '', command: 'review', references: [reference(vscode.Uri.joinPath(root, 'hello.ts'))] },
			{ history: [] },
			stream,
			tokens.token,
			deps,
		);
		const run = await finished;
		assert.equal(run.request.kind, 'review');
		assert.equal(run.request.review?.path, 'hello.ts');
		assert.equal(run.request.review?.startLine, 0);
		assert.match(run.request.question, /Review the code selected in `hello\.ts`/);
		assert.ok(of('markdown').length > 0);
		tokens.dispose();
	});

	it('continues the conversation when the previous chat turn was ours, starts a new one otherwise', async () => {
		await useConfig(join(fixtures, 'team.yaml'));
		const tokens = new vscode.CancellationTokenSource();
		const ask = (prompt: string, history: vscode.ChatContext['history']) =>
			handleChatRequest(
				{ prompt, command: undefined, references: [] },
				{ history },
				recordingStream().stream,
				tokens.token,
				deps,
			);
		const first = await ask('How should we document this project?', []);
		assert.equal(api.conversation().length, 1);
		const second = await ask('And the tests?', [new Turn([], first, 'massgen.chat')]);
		assert.deepEqual(
			api.conversation().map((turn) => turn.question),
			['How should we document this project?', 'And the tests?'],
		);
		await ask('Something else', [new Turn([], first, 'someone.else')]);
		assert.deepEqual(
			api.conversation().map((turn) => turn.question),
			['Something else'],
		);
		// The chat's own history names the run it follows (as after a window reload, when the window
		// remembers nothing, or here, when it last asked something else): that run's session goes on.
		await ask('And the changelog?', [new Turn([], second, 'massgen.chat')]);
		assert.deepEqual(
			api.conversation().map((turn) => turn.question),
			['How should we document this project?', 'And the tests?', 'And the changelog?'],
		);
		tokens.dispose();
	});

	it("cancels the run when the request's token is cancelled", async () => {
		await useConfig(join(fixtures, 'slow-team.yaml'));
		const { stream, of } = recordingStream();
		const tokens = new vscode.CancellationTokenSource();
		const previous = api.lastState()?.runId;
		const handled = handleChatRequest(
			{ prompt: 'a slow question', command: undefined, references: [] },
			{ history: [] },
			stream,
			tokens.token,
			deps,
		);
		// Cancelled once the run has really started (its first event), not while the team resolves.
		const runId = await until('the run to start', () => {
			const id = api.lastState()?.runId;
			return id && id !== previous ? id : undefined;
		});
		tokens.cancel();
		await handled;
		assert.equal(api.runs.isRunning, false);
		assert.equal(api.lastState()?.runId, runId);
		assert.equal(api.lastState()?.status, 'cancelled');
		assert.deepEqual(of('button'), [], 'no result after a cancel');
		tokens.dispose();
	});

	it('runs beside a run already going, its progress lines from its own run only', async () => {
		await useConfig(join(fixtures, 'slow-team.yaml'));
		const running = api.runs.start({ question: 'a slow question', kind: 'ask' });
		await until('the slow run to run', () => api.runs.active().find((run) => run.phase === 'running'));
		// The slow run's team is resolved: the chat's run gets the quick team.
		await useConfig(join(fixtures, 'lm-tool-team.yaml'));
		const { stream, of } = recordingStream();
		const tokens = new vscode.CancellationTokenSource();
		const result = await handleChatRequest(
			{ prompt: 'How should we document this project?', command: undefined, references: [] },
			{ history: [] },
			stream,
			tokens.token,
			deps,
		);
		assert.equal(result.errorDetails, undefined);
		assert.match(of('markdown').join(''), /won with 2 of 2 votes/);
		const progress = of('progress').join('\n');
		assert.doesNotMatch(progress, /slow1|slow2/, 'no line from the other run');
		assert.deepEqual(
			api.runs.active().map((run) => `${run.request.question}: ${run.phase}`),
			['a slow question: running'],
			'the first run goes on',
		);
		api.runs.cancel();
		await running;
		tokens.dispose();
	});

	it('says in the response which agents do not see an attached image', async () => {
		await useConfig(join(fixtures, 'lm-tool-team.yaml'));
		const dir = mkdtempSync(join(root.fsPath, 'chat-image-'));
		const name = dir.slice(root.fsPath.length + 1);
		writeFileSync(join(dir, 'shot.png'), png);
		try {
			const { stream, of } = recordingStream();
			const tokens = new vscode.CancellationTokenSource();
			await handleChatRequest(
				{
					prompt: 'What does the picture show?',
					command: undefined,
					references: [reference(vscode.Uri.file(join(dir, 'shot.png')))],
				},
				{ history: [] },
				stream,
				tokens.token,
				deps,
			);
			assert.equal(api.lastState()?.status, 'completed');
			assert.deepEqual(
				api.lastState()?.attachments?.map((a) => `${a.kind} ${a.source}`),
				[`image ${name}/shot.png`],
			);
			// Sent as text (appendText escapes Markdown characters, spaces as &nbsp;): compared without them.
			const markdown = of('markdown');
			const notes = markdown
				.map((part) => part.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1'))
				.filter((part) => part.startsWith('Note: '));
			assert.deepEqual(
				notes.sort(),
				[
					'Note: planner (scripted/scripted-planner) cannot take images: it gets the text attachments only.\n\n',
					'Note: reviewer (scripted/scripted-reviewer) cannot take images: it gets the text attachments only.\n\n',
				],
				JSON.stringify(markdown.slice(0, 4)),
			);
			tokens.dispose();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("streams why the run did not start (a .env reference: the core's reason)", async () => {
		await useConfig(join(fixtures, 'lm-tool-team.yaml'));
		const dir = mkdtempSync(join(root.fsPath, 'chat-secret-'));
		const name = dir.slice(root.fsPath.length + 1);
		writeFileSync(join(dir, '.env'), 'TOKEN=zz-chat-secret\n');
		try {
			const { stream, of } = recordingStream();
			const tokens = new vscode.CancellationTokenSource();
			const result = await handleChatRequest(
				{
					prompt: 'What is in here?',
					command: undefined,
					references: [reference(vscode.Uri.file(join(dir, '.env')))],
				},
				{ history: [] },
				stream,
				tokens.token,
				deps,
			);
			const text = of('markdown').join('');
			assert.ok(
				text.startsWith(
					`The MassGen run did not start: cannot attach '${name}/.env': refused: '${name}/.env' is a secret path (matches '.env*')`,
				),
				text,
			);
			assert.ok(!text.includes('zz-chat-secret'));
			assert.equal(result.errorDetails?.message, text);
			assert.equal(api.runs.isRunning, false);
			tokens.dispose();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('/withModel never adds a model of the MassGen vendor (a team asking itself) and needs a selected model', async () => {
		await useConfig(join(fixtures, 'lm-tool-team.yaml'));
		const previous = api.lastState()?.runId;
		for (const model of [
			{ id: 'massgen-team', vendor: 'massgen', family: 'team', name: 'MassGen: team' },
			undefined,
		]) {
			const { stream, of } = recordingStream();
			const tokens = new vscode.CancellationTokenSource();
			const result = await handleChatRequest(
				{ prompt: 'Who is on the team?', command: 'withModel', references: [], ...(model ? { model } : {}) },
				{ history: [] },
				stream,
				tokens.token,
				deps,
			);
			tokens.dispose();
			assert.match(of('markdown').join(''), model ? /is a MassGen team itself/ : /No model is selected/);
			assert.ok(result.errorDetails);
		}
		assert.equal(api.lastState()?.runId, previous, 'no run started');
	});

	describe('links and follow-ups (chat-team: adds chat-links/NEW.md, rewrites chat-links/old.md)', () => {
		let links: string;
		let outside: string;

		beforeEach(() => {
			links = join(root.fsPath, 'chat-links');
			mkdirSync(links, { recursive: true });
			writeFileSync(join(links, 'old.md'), 'old\n');
			writeFileSync(join(links, '.env'), 'TOKEN=zz-chat-links\n');
			outside = mkdtempSync(join(tmpdir(), 'chat-outside-'));
			writeFileSync(join(outside, 'out.md'), 'outside\n');
			symlinkSync(join(outside, 'out.md'), join(links, 'out.md'));
			symlinkSync(join(links, '.env'), join(links, 'alias.md'));
		});

		afterEach(async () => {
			for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
			rmSync(links, { recursive: true, force: true });
			rmSync(outside, { recursive: true, force: true });
		});

		async function ask(prompt = 'Note the change down') {
			await useConfig(join(fixtures, 'chat-team.yaml'));
			const recorded = recordingStream();
			const tokens = new vscode.CancellationTokenSource();
			const finished = nextFinish(api);
			const result = await handleChatRequest(
				{ prompt, command: undefined, references: [] },
				{ history: [] },
				recorded.stream,
				tokens.token,
				deps,
			);
			const run = await finished;
			tokens.dispose();
			return { ...recorded, result, run };
		}

		async function followUp(command: string, after: vscode.ChatResult, participant = 'massgen.chat') {
			const recorded = recordingStream();
			const tokens = new vscode.CancellationTokenSource();
			const result = await handleChatRequest(
				{ prompt: '', command, references: [] },
				{ history: [new Turn([], after, participant)] },
				recorded.stream,
				tokens.token,
				deps,
			);
			tokens.dispose();
			return { ...recorded, result };
		}

		it('anchors the changed files and references them and the lines the answer cites, inside the folder only', async () => {
			const { of, parts, run } = await ask();
			const runId = run.result.runId;
			assert.deepEqual(of('anchor'), [
				`massgen-change:/chat-links/NEW.md?${runId} "chat-links/NEW.md"`,
				'chat-links/old.md "chat-links/old.md"',
			]);
			// Each anchor sits on its own list line, after the change's kind.
			const listed = parts
				.slice(parts.findIndex((part) => part.kind === 'anchor') - 1)
				.slice(0, 6)
				.map((part) => (part.kind === 'anchor' ? `[${part.value.split(' ')[0]}]` : part.value))
				.join('');
			assert.equal(
				listed,
				`- add [massgen-change:/chat-links/NEW.md?${runId}]\n- modify [chat-links/old.md]\n`,
			);
			// The modified file, then the cited lines that are files of the folder the policy lets agents
			// read: not the secret, the climb, the missing file, the link out or the link to the secret.
			assert.deepEqual(of('reference'), ['chat-links/old.md', 'chat-links/old.md#L1-L1', 'README.md#L1-L1']);
			assert.equal(readFileSync(join(links, 'old.md'), 'utf8'), 'old\n', 'nothing written');
		});

		it('follow-ups: Review Changes and Accept while its change set is pending, Ask the team again; /accept writes only then', async () => {
			const before = snapshotFiles(root.fsPath);
			const { result, run } = await ask('Note the change down');
			assert.deepEqual(snapshotFiles(root.fsPath), before, 'the run wrote nothing');
			const followups = chatFollowups(result, deps.changes);
			assert.deepEqual(
				followups.map((f) => [f.label, f.command ?? '(same)', f.prompt]),
				[
					['Review Changes', 'changes', 'Review the proposed changes'],
					['Accept', 'accept', 'Accept the proposed changes'],
					['Ask the team again', '(same)', 'Note the change down'],
				],
			);

			// /changes opens the review (the multi-file diff) and writes nothing.
			const review = await followUp('changes', result);
			await until('the multi-file diff tab', () =>
				vscode.window.tabGroups.all
					.flatMap((group) => group.tabs)
					.find((tab) =>
						/^MassGen “Note the change down”: 2 files changed by (planner|reviewer)/.test(tab.label),
					),
			);
			assert.match(review.of('markdown').join(''), /open for review/);
			assert.deepEqual(snapshotFiles(root.fsPath), before, '/changes wrote nothing');

			// /accept after another participant's turn does not accept this chat's changes.
			const elsewhere = await followUp('accept', result, 'someone.else');
			assert.match(elsewhere.of('markdown').join(''), /not from the last answer here/);
			assert.deepEqual(snapshotFiles(root.fsPath), before, 'a foreign /accept wrote nothing');
			assert.equal(
				api.changes.changeSet(run.result.runId)?.runId,
				run.result.runId,
				"the run's changes are pending",
			);

			// /accept after our answer runs Accept Changes: exactly the two files change.
			const accepted = await followUp('accept', result);
			assert.match(
				accepted.of('markdown').join(''),
				/^Accepted: `chat-links\/NEW\.md`, `chat-links\/old\.md`|^Accepted: `chat-links\/old\.md`, `chat-links\/NEW\.md`/,
			);
			const after = snapshotFiles(root.fsPath);
			const changed = Object.keys({ ...before, ...after })
				.filter((path) => before[path] !== after[path])
				.sort();
			assert.deepEqual(changed, ['chat-links/NEW.md', 'chat-links/old.md']);
			assert.equal(readFileSync(join(links, 'old.md'), 'utf8'), 'new\n');
			assert.deepEqual(accepted.result.metadata, { runId: run.result.runId });
			// Nothing pending now: no Review/Accept follow-ups, and /accept says so.
			assert.deepEqual(
				chatFollowups(result, deps.changes).map((f) => f.label),
				['Ask the team again'],
			);
			const again = await followUp('accept', result);
			assert.match(again.of('markdown').join(''), /No MassGen changes are waiting for review/);
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		});
	});
});
