// In-host: the panel's ask box (docs/context.md). Its `ask` message with a file chip and a pasted-image
// chip reaches every agent's first request (four SDKs against loopback servers) with the file's
// text and the image's bytes in each protocol's own shape; a chip for `.env` starts nothing and
// comes back with the reason; `#` completion lists the workspace with VS Code's ripgrep, secret
// files left out. The messages are the ones the webview posts, passed through `PanelHost.receive`.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { runsDir } from '../../src/contract/runLayout';
import type { AttachmentChip } from '../../src/protocol/attachmentChip';
import type { HostMessage } from '../../src/protocol/messages';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { RunController } from '../../src/vscode/run/runController';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import type { SurfaceHost } from '../../src/vscode/panel/surfaceHost';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { until, useConfig, workspaceRoot } from './hostWaits';
import { openOwnPanel } from './ownPanel';

const dirName = 'askbox-fixture';
const noteText = 'The ask box note: retries are capped at 3 (INHOST-ASKBOX-7731).';
const secret = 'zz-secret-INHOST-askbox-5150';
/** A real 1×1 PNG, as the webview sends a pasted image (base64). */
const pngBase64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDKs' request bodies, read by protocol below
type Body = Record<string, any>;
/** Each protocol's first user message content, read from the raw wire body. */
const firstUserContent: Record<string, (body: Body) => unknown[]> = {
	responses: (body) => body['input'][0].content,
	chat: (body) => body['messages'].find((m: { role: string }) => m.role === 'user').content,
	anthropic: (body) => body['messages'][0].content,
	gemini: (body) => body['contents'][0].parts,
};
/** The image in each protocol's own shape. */
const expectedImage: Record<string, unknown> = {
	responses: { type: 'input_image', image_url: `data:image/png;base64,${pngBase64}`, detail: 'auto' },
	chat: { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
	anthropic: { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64 } },
	gemini: { inlineData: { mimeType: 'image/png', data: pngBase64 } },
};

describe('Ask box attachments (in VS Code, loopback servers)', function () {
	this.timeout(60_000);
	let team: LoopbackTeam;
	let configDir: string;
	let root: string;
	let panel: SurfaceHost;
	let runs: RunController;
	let posted: HostMessage[] = [];
	const disposables: vscode.Disposable[] = [];

	const requestCounts = () =>
		Object.fromEntries(Object.entries(team.servers).map(([protocol, s]) => [protocol, s.requests.length]));
	const runCount = () => (existsSync(runsDir(root)) ? readdirSync(runsDir(root)).length : 0);

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		await extension.activate();
		root = workspaceRoot();
		mkdirSync(join(root, dirName), { recursive: true });
		writeFileSync(join(root, dirName, 'note.md'), `${noteText}\n`);
		writeFileSync(join(root, dirName, '.env'), `API_TOKEN=${secret}\n`);
		team = await startLoopbackTeam();
		configDir = mkdtempSync(join(tmpdir(), 'massgen-askbox-'));
		writeFileSync(join(configDir, 'team.yaml'), team.configYaml());
		await useConfig(join(configDir, 'team.yaml'));
		const own = await openOwnPanel(extension, 'MassGen ask box test');
		disposables.push(own);
		({ runs, panel, posted } = own);
	});

	after(async () => {
		for (const d of disposables.reverse()) d.dispose();
		await useConfig(undefined);
		await team?.close();
		rmSync(configDir, { recursive: true, force: true });
		rmSync(join(root, dirName), { recursive: true, force: true });
	});

	it('# completion lists the workspace with VS Code’s ripgrep: the file, its folder and #changes; never .env', async () => {
		await panel.receive({ type: 'search-context', query: 'askbox-fixture', requestId: 'q1' });
		const answer = await until('the answer', () =>
			posted.find(
				(m): m is Extract<HostMessage, { type: 'context-results' }> =>
					m.type === 'context-results' && m.requestId === 'q1',
			),
		);
		const requests = answer.items.map((item) => item.request);
		assert.deepEqual(requests.slice(0, 2), [
			{ kind: 'path', path: dirName },
			{ kind: 'path', path: `${dirName}/note.md` },
		]);
		assert.ok(!JSON.stringify(answer.items).includes('.env'), 'no secret path offered');
		await panel.receive({ type: 'search-context', query: 'chan', requestId: 'q2' });
		const changes = await until('the answer', () =>
			posted.find(
				(m): m is Extract<HostMessage, { type: 'context-results' }> =>
					m.type === 'context-results' && m.requestId === 'q2',
			),
		);
		assert.deepEqual(changes.items[0]?.request, { kind: 'diff', source: 'working-tree' });
		await panel.receive({ type: 'search-context', query: '.env', requestId: 'q3' });
		const envAnswer = await until('the answer', () =>
			posted.find(
				(m): m is Extract<HostMessage, { type: 'context-results' }> =>
					m.type === 'context-results' && m.requestId === 'q3',
			),
		);
		assert.ok(!JSON.stringify(envAnswer.items).includes(`${dirName}/.env`), 'no secret path offered');
	});

	it('#selection, #file and #problems come from the editor the user was in (the panel has the focus)', async () => {
		const note = vscode.Uri.file(join(root, dirName, 'note.md'));
		const editor = await vscode.window.showTextDocument(note, { viewColumn: vscode.ViewColumn.Beside });
		editor.selection = new vscode.Selection(0, 4, 0, 20);
		const diagnostics = vscode.languages.createDiagnosticCollection('massgen-askbox-test');
		disposables.push(diagnostics);
		const problem = new vscode.Diagnostic(new vscode.Range(0, 4, 0, 12), 'askbox: unclear note', 1);
		problem.source = 'lint';
		diagnostics.set(note, [problem]);
		panel.surface!.reveal(false);
		await until('the panel to have the focus', () => panel.focused);
		// The diagnostics reach the extension host's view asynchronously: ask again until they show.
		let asked = 0;
		const answer = await until('the fixed items', () => {
			const latest = posted.find(
				(m): m is Extract<HostMessage, { type: 'context-results' }> =>
					m.type === 'context-results' && m.requestId === `fixed-${asked}`,
			);
			if (latest?.items.some((item) => item.label === 'problems')) return latest;
			if (asked === 0 || latest) {
				asked += 1;
				void panel.receive({ type: 'search-context', query: '', requestId: `fixed-${asked}` });
			}
			return undefined;
		});
		const fixed = answer.items.slice(0, 4);
		assert.deepEqual(
			fixed.map((item) => [item.label, item.request]),
			[
				['selection', { kind: 'file', path: `${dirName}/note.md`, range: { start: 1, end: 1 } }],
				['note.md', { kind: 'file', path: `${dirName}/note.md` }],
				['changes', { kind: 'diff', source: 'working-tree' }],
				[
					'problems',
					{
						kind: 'diagnostics',
						path: `${dirName}/note.md`,
						items: [
							{
								range: { start: 1, end: 1, column: 5 },
								severity: 'warning',
								message: 'askbox: unclear note',
								source: 'lint',
							},
						],
					},
				],
			],
		);
		await vscode.commands.executeCommand('workbench.action.closeEditorsInOtherGroups');
	});

	it('files dropped from the Explorer become path chips; a secret one and one outside the folder are named in a notice', async () => {
		const uri = (path: string) => vscode.Uri.file(join(root, path)).toString();
		await panel.receive({
			type: 'drop-uris',
			uris: [
				uri(`${dirName}/note.md`),
				uri(dirName),
				uri(`${dirName}/.env`),
				vscode.Uri.file(tmpdir()).toString(),
			],
		});
		const added = await until('the chips', () =>
			posted.find((m): m is Extract<HostMessage, { type: 'chips-added' }> => m.type === 'chips-added'),
		);
		assert.deepEqual(
			added.chips.map((chip) => [chip.label, chip.request]),
			[
				['note.md', { kind: 'path', path: `${dirName}/note.md` }],
				[`${dirName}/`, { kind: 'path', path: dirName }],
			],
		);
		assert.match(
			added.notice ?? '',
			/^Not attached: askbox-fixture\/\.env \(a secret path: \.env\*\); \S+ \(outside the workspace folder\)\.$/,
		);
	});

	it('an ask with a file chip and an image chip: every agent’s first request holds the file text and the image', async () => {
		const chips: AttachmentChip[] = [
			{
				id: 'c1',
				label: 'note.md',
				detail: `${dirName}/note.md`,
				request: { kind: 'path', path: `${dirName}/note.md` },
			},
			{
				id: 'c2',
				label: 'pasted-image-1.png',
				thumbnail: `data:image/png;base64,${pngBase64}`,
				request: { kind: 'image', path: 'pasted-image-1.png', dataBase64: pngBase64 },
			},
		];
		const seen = requestCounts();
		const done = new Promise<FinishedRun>((resolve) => {
			const listener = runs.onDidFinishRun((run) => {
				listener.dispose();
				resolve(run);
			});
		});
		await panel.receive({
			type: 'ask',
			question: 'What does the note say about retries?',
			attachments: chips,
		});
		const run = await done;
		assert.equal(run.result.status, 'completed', run.result.error);
		for (const [protocol, server] of Object.entries(team.servers)) {
			const first = server.firstModelRequest(seen[protocol] ?? 0);
			assert.ok(first, `${protocol}: a request`);
			const text = first.prompt.texts.join('\n');
			assert.ok(
				text.includes(`<attachment kind="file" source="${dirName}/note.md">\n${noteText}\n</attachment>`),
				`${protocol}: the file's text`,
			);
			assert.ok(
				firstUserContent[protocol]!(first.body as Body).some(
					(part) => JSON.stringify(part) === JSON.stringify(expectedImage[protocol]),
				),
				`${protocol}: the image's bytes in its own shape`,
			);
		}
		assert.deepEqual(
			run.state.attachments?.map((a) => [a.kind, a.source, a.bytes]),
			[
				['file', `${dirName}/note.md`, Buffer.byteLength(`${noteText}\n`)],
				['image', 'pasted-image-1.png', Buffer.from(pngBase64, 'base64').byteLength],
			],
		);
	});

	it('a chip for .env starts no run: nothing reaches a server, and the question comes back with the reason', async () => {
		const seen = requestCounts();
		const before = runCount();
		const chip: AttachmentChip = {
			id: 'c1',
			label: '.env',
			request: { kind: 'path', path: `${dirName}/.env` },
		};
		await panel.receive({ type: 'ask', question: 'What is in this file?', attachments: [chip] });
		const refused = await until('the refusal', () =>
			posted.find((m): m is Extract<HostMessage, { type: 'ask-refused' }> => m.type === 'ask-refused'),
		);
		assert.equal(refused.question, 'What is in this file?');
		assert.deepEqual(refused.attachments, [chip]);
		assert.match(refused.reason, /askbox-fixture\/\.env.*secret path/);
		assert.equal(runs.isRunning, false);
		assert.deepEqual(requestCounts(), seen, 'no request reached a server');
		assert.equal(runCount(), before, 'no run directory');
		for (const server of Object.values(team.servers)) {
			assert.ok(!server.requests.some((r) => r.rawBody.includes(secret)), 'the secret reached a server');
		}
	});
});
