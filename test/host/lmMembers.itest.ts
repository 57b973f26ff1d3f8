// In-host: `vscode_lm` members over real VS Code language models, the recorder's (test/host/lmRecorder.ts,
// a LanguageModelChatProvider registered through vscode.lm): what they receive. The Chat view is not
// driven (no chat model answers in code-server without Copilot): the participant's handler is called.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { RunEvent } from '../../src/contract/runEvents';
import type { ChatChanges } from '../../src/vscode/chat/changeFollowups';
import { handleChatRequest, type ParticipantDeps } from '../../src/vscode/chat/participant';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { RunStarter } from '../../src/vscode/run/runStarter';
import { endRunAndConfig, nextFinish, useConfig } from './hostWaits';
import { type RecordedRequest, recorderVendor, registerRecorder, requestText } from './lmRecorder';

const extensionId = 'massgen.massgen-vscode';
// A real 1×1 PNG: the workbench decodes the images of a request before the provider gets them.
const png = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);

const silentStream = () => {
	const markdown: string[] = [];
	const progress: string[] = [];
	return {
		markdown,
		progress,
		stream: {
			markdown: (value: string | vscode.MarkdownString) =>
				void markdown.push(typeof value === 'string' ? value : value.value),
			progress: (value: string) => void progress.push(value),
			button: () => undefined,
			anchor: () => undefined,
			reference: () => undefined,
		},
	};
};

function runStart(runDir: string): Extract<RunEvent, { type: 'run-start' }> {
	const first = readFileSync(join(runDir, 'events.jsonl'), 'utf8').split('\n')[0]!;
	return JSON.parse(first) as Extract<RunEvent, { type: 'run-start' }>;
}

/** The first user message of a model's first request. */
function firstUserParts(requests: readonly RecordedRequest[], model: string) {
	const request = requests.find((r) => r.model === model);
	assert.ok(
		request,
		`${model} was called (called: ${[...new Set(requests.map((r) => r.model))].join(', ')})`,
	);
	const user = request.messages.find((m) => m.role === 'user');
	assert.ok(user);
	return { request, parts: user.parts };
}

describe('vscode_lm members over real VS Code language models (the recording provider)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let deps: ParticipantDeps;
	let root: vscode.Uri;
	let fixtures: string;
	let recorder: ReturnType<typeof registerRecorder>;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(extension);
		api = await extension.activate();
		deps = {
			runs: api.runs as unknown as RunStarter,
			changes: api.changes as unknown as ChatChanges,
			planDocuments: api.planDocuments,
		};
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
		root = vscode.workspace.workspaceFolders![0]!.uri;
		recorder = registerRecorder();
		const models = await vscode.lm.selectChatModels({ vendor: recorderVendor });
		assert.deepEqual(models.map((m) => m.id).sort(), ['recorder-text', 'recorder-vision']);
	});

	after(() => recorder.dispose());

	afterEach(async () => {
		recorder.requests.length = 0;
		for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
		await endRunAndConfig(api);
	});

	it("@massgen /withModel: the chat's selected model joins the team for that run, and only that run", async () => {
		await useConfig(join(fixtures, 'lm-tool-team.yaml'));
		const [model] = await vscode.lm.selectChatModels({ vendor: recorderVendor, id: 'recorder-text' });
		assert.ok(model);
		const { stream, progress } = silentStream();
		const tokens = new vscode.CancellationTokenSource();
		const finished = nextFinish(api);
		await handleChatRequest(
			{ prompt: 'Who is on the team today?', command: 'withModel', references: [], model },
			{ history: [] },
			stream,
			tokens.token,
			deps,
		);
		const run = await finished;
		tokens.dispose();
		assert.equal(run.result.status, 'completed', run.result.error ?? '');
		assert.equal(progress[0], '3 agents are answering…');
		assert.deepEqual(
			runStart(run.runDir).agents.map((a) => `${a.agentId} ${a.provider}/${a.model}`),
			[
				'planner scripted/scripted-planner',
				'reviewer scripted/scripted-reviewer',
				'massgen-test-recorder-text vscode_lm/recorder-text',
			],
		);
		// The recorder's model got the agents' prompt: the question and the workflow tools.
		const { request } = firstUserParts(recorder.requests, 'recorder-text');
		assert.match(requestText(request), /Who is on the team today\?/);
		assert.deepEqual(request.tools.filter((t) => t === 'new_answer' || t === 'vote').sort(), [
			'new_answer',
			'vote',
		]);

		// The next question without /withModel: the team as configured.
		recorder.requests.length = 0;
		const again = nextFinish(api);
		await handleChatRequest(
			{ prompt: 'And now?', command: undefined, references: [] },
			{ history: [] },
			silentStream().stream,
			new vscode.CancellationTokenSource().token,
			deps,
		);
		const second = await again;
		assert.deepEqual(
			runStart(second.runDir).agents.map((a) => a.agentId),
			['planner', 'reviewer'],
		);
		assert.deepEqual(recorder.requests, []);
	});

	it('an attached image reaches a model that declares image input as a LanguageModelDataPart; a text-only one gets the note', async () => {
		await useConfig(join(fixtures, 'lm-image-team.yaml'));
		const dir = mkdtempSync(join(root.fsPath, 'lm-image-'));
		const name = dir.slice(root.fsPath.length + 1);
		writeFileSync(join(dir, 'shot.png'), png);
		try {
			const { stream, markdown } = silentStream();
			const tokens = new vscode.CancellationTokenSource();
			const finished = nextFinish(api);
			await handleChatRequest(
				{
					prompt: 'What does the picture show?',
					command: undefined,
					references: [
						{
							id: 'vscode.file',
							name: 'shot.png',
							value: vscode.Uri.file(join(dir, 'shot.png')),
						} as vscode.ChatPromptReference,
					],
				},
				{ history: [] },
				stream,
				tokens.token,
				deps,
			);
			const run = await finished;
			tokens.dispose();
			assert.equal(run.result.status, 'completed', run.result.error ?? '');
			assert.deepEqual(
				run.result.attachments?.map((a) => `${a.kind} ${a.source} ${a.mediaType}`),
				[`image ${name}/shot.png image/png`],
			);

			const events = readFileSync(join(run.runDir, 'events.jsonl'), 'utf8');
			assert.ok(
				recorder.requests.some((r) => r.model === 'recorder-vision'),
				events
					.split('\n')
					.filter((line) => /error|fail|notice/.test(line))
					.join('\n')
					.slice(0, 3000),
			);
			const vision = firstUserParts(recorder.requests, 'recorder-vision');
			const images = vision.parts.filter((p) => p.kind === 'data');
			assert.equal(images.length, 1, JSON.stringify(vision.parts.map((p) => p.kind)));
			const image = images[0] as Extract<(typeof images)[number], { kind: 'data' }>;
			assert.equal(image.mimeType, 'image/png');
			assert.deepEqual(Buffer.from(image.data), png);
			assert.match(
				requestText(vision.request),
				new RegExp(`image/png image, ${png.byteLength} B: image input 1 of this message`),
			);

			const text = firstUserParts(recorder.requests, 'recorder-text');
			assert.deepEqual(
				text.parts.filter((p) => p.kind !== 'text'),
				[],
			);
			assert.match(requestText(text.request), /not shown: your model takes text only/);
			// No call of the text-only model carries an image.
			for (const request of recorder.requests.filter((r) => r.model === 'recorder-text')) {
				assert.ok(
					request.messages.every((m) => m.parts.every((p) => p.kind === 'text' || p.kind === 'other')),
				);
			}
			// Sent as text (appendText escapes Markdown characters, spaces as &nbsp;): compared without them.
			const notes = markdown
				.map((part) => part.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1'))
				.filter((part) => part.startsWith('Note: '));
			assert.deepEqual(notes, [
				'Note: text (vscode_lm/recorder-text) cannot take images: it gets the text attachments only.\n\n',
			]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
