import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import { ApprovalBroker } from '../../../src/core/permissions/approvalBroker';
import { loadConfigText } from '../../../src/core/config/loadConfig';
import type { RunEvent } from '../../../src/contract/runEvents';
import { Redactor } from '../../../src/core/secrets/redactor';
import { seedRedactor } from '../../../src/core/secrets/seedRedactor';
import type { HostMessage } from '../../../src/protocol/messages';
import { initialRunState, type RunState } from '../../../src/protocol/runState';
import { reduceRun } from '../../../src/protocol/reduceRun';
import { createLog, SessionSecrets } from '../../../src/vscode/common/log';
import type { RunController, RunEventBatch } from '../../../src/vscode/run/runController';
import type { RunHost } from '../../../src/core/run/runHost';
import { prepareRun, startRun } from '../../../src/vscode/run/runEngine';
import { PanelHost } from '../../../src/vscode/panel/panelHost';
import { toolNotices } from '../../support/toolNotices';
import { noPendingChanges } from './noPendingChanges';

/** The extension's output channels: the log, the panel, and the run's event path (docs/threat-model.md). */
const secret = 'sk-test-EXTENSIONKEY-0123456789';
const fake = vscode as unknown as {
	window: { outputLines: string[]; panels: { posted: HostMessage[]; receive(m: unknown): void }[] };
	FakeWebviewView: new () => { posted: HostMessage[]; receive(m: unknown): void };
	workspace: { workspaceFolders: unknown };
};

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) =>
		statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)],
	);
}

describe('the extension redacts secrets', () => {
	it('the MassGen log: every message, once a run made the secret known (errors and late lines too)', () => {
		// Seeded as the extension seeds it: the environment's secret-looking values, before any run.
		const envToken = 'ghp_env-token-before-any-run-42';
		const secrets = new SessionSecrets(seedRedactor({ env: { GH_TOKEN: envToken, HOME: '/home/me' } }));
		const log = createLog(secrets);
		fake.window.outputLines.length = 0;
		log.info(`activation: ${envToken} in /home/me`);
		secrets.learn(new Redactor([secret]));
		log.info(`team key ${secret}`);
		log.error(new Error(`401 for ${secret}`));
		log.warn(`tools: server at http://bob:pw-1234@host/mcp failed`);
		expect(fake.window.outputLines.join('\n')).not.toContain(secret);
		expect(fake.window.outputLines).toEqual([
			'info: activation: [redacted] in /home/me',
			'info: team key [redacted]',
			expect.stringMatching(/^error: Error: 401 for \[redacted\]/),
			'warn: tools: server at http://[redacted]@host/mcp failed',
		]);
	});

	it('the panel: no message to the webview carries a known secret (live batches and snapshots)', async () => {
		const root = mkdtempSync(join(tmpdir(), 'massgen-redact-'));
		fake.workspace.workspaceFolders = [{ uri: vscode.Uri.file(root), name: 'ws', index: 0 }];
		const emitted = new vscode.EventEmitter<RunEventBatch>();
		let state: RunState | null = null;
		const runs = {
			get state() {
				return state;
			},
			stateOf: (runId: string) => (state?.runId === runId ? state : undefined),
			onDidStartRun: new vscode.EventEmitter<unknown>().event,
			onDidEmitEvents: emitted.event,
			onDidFinishRun: new vscode.EventEmitter<unknown>().event,
			onDidChangeActive: new vscode.EventEmitter<void>().event,
			active: () => [],
		};
		const secrets = new SessionSecrets(seedRedactor({ env: {} }));
		secrets.learn(new Redactor([secret]));
		const quiet = { info() {}, debug() {}, warn() {}, error() {} } as unknown as vscode.LogOutputChannel;
		const host = new PanelHost({
			extensionUri: vscode.Uri.file('/ext'),
			log: quiet,
			runs: runs as unknown as RunController,
			changes: noPendingChanges(),
			memento: { get: () => undefined, update: async () => undefined } as unknown as vscode.Memento,
			secrets,
		});
		const events: RunEvent[] = [
			{
				runId: 'r',
				seq: 0,
				t: 0,
				type: 'run-start',
				question: `use ${secret}`,
				workspace: root,
				agents: [{ agentId: 'a', anonId: 'agent1', provider: 'scripted', model: 'm' }],
			},
			{
				runId: 'r',
				seq: 1,
				t: 1,
				type: 'text-delta',
				agentId: 'a',
				phase: 'coordination',
				text: `the key is ${secret}`,
			},
		];
		state = reduceRun(initialRunState(), events[0]!);
		// Both surfaces: the side bar view and the editor tab (Open in Editor).
		const view = new fake.FakeWebviewView();
		host.resolveView(view as unknown as vscode.WebviewView);
		await host.openInEditor();
		const surfaces = [view, fake.window.panels.at(-1)!];
		for (const surface of surfaces) {
			surface.receive({ type: 'ready' });
			for (let i = 0; i < 50 && !surface.posted.some((m) => m.type === 'snapshot'); i++) {
				await new Promise((resolve) => setTimeout(resolve, 5));
			}
		}
		emitted.fire({ runId: 'r', events: [events[1]!] });
		for (const surface of surfaces) {
			const posted = JSON.stringify(surface.posted);
			expect(posted).toContain('the key is [redacted]');
			expect(posted).toContain('use [redacted]');
			expect(posted).not.toContain(secret);
		}
	});

	it('the run event path (the engine: prepareRun and startRun): events, notices and the run directory lose the key, also split across deltas', async () => {
		const root = mkdtempSync(join(tmpdir(), 'massgen-redact-run-'));
		// A workspace MCP file whose server prints what its \${VAR} expanded to, then exits: the notice quotes it.
		const workspaceToken = 'workspace-MCP-token-5150';
		const script = 'console.error("token " + process.env.TOKEN); process.exit(1)';
		writeFileSync(
			join(root, '.mcp.json'),
			JSON.stringify({
				mcpServers: {
					wsleak: { command: process.execPath, args: ['-e', script], env: { TOKEN: '${WS_VALUE}' } },
				},
			}),
		);
		const text = [
			'agents:',
			'  - id: echo',
			'    backend:',
			'      type: scripted',
			`      api_key: ${secret}`,
			'      script:',
			'        chunks: 7',
			'        coordination:',
			`          - answer: "the key is ${secret}, the header token is \${HEADER_TOKEN}"`,
			`            text: "streaming ${secret} and \${HEADER_TOKEN_VALUE_ECHO}"`,
			'          - vote: first',
			`        presentation: { text: "final: ${secret}" }`,
			'      mcp_servers:',
			'        - name: remote',
			'          type: http',
			'          url: http://127.0.0.1:9/mcp',
			'          headers: { Authorization: "Bearer ${HEADER_TOKEN}" }',
			// A second agent, so the team coordinates (a lone agent goes straight to its presentation).
			'  - id: quiet',
			'    backend: { type: scripted, script: { coordination: [{ answer: ok }, { vote: first }] } }',
		].join('\n');
		const headerToken = 'header-TOKEN-from-env-4242';
		const loaded = loadConfigText(
			text.replace('${HEADER_TOKEN_VALUE_ECHO}', headerToken),
			join(root, 'team.yaml'),
		);
		expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
		const file = join(root, 'team.yaml');
		writeFileSync(file, text.replace('${HEADER_TOKEN_VALUE_ECHO}', headerToken));
		let learned: Redactor | undefined;
		const kinds: string[] = [];
		const host: RunHost = {
			paths: { shippedConfigsDir: join(__dirname, '..', '..', '..', 'configs') },
			env: { HEADER_TOKEN: headerToken, WS_VALUE: workspaceToken },
			workspaceTrusted: true,
			namedConfig: () => ({ file }),
			learnSecrets: (redactor) => (learned = redactor),
			tools: {
				broker: new ApprovalBroker({ policy: () => ({ decision: 'allow' }) }),
				trusted: true,
				rules: {},
				readWorkspaceServers: true,
			},
			// The user allowed the workspace's servers (the consent's decision as the editor's host gives it),
			// so they start, and what they print is what this test checks.
			decideTrust: async (listing) => {
				kinds.push(...listing.items.map((item) => item.kind));
				return { kind: 'trusted', hash: listing.hash };
			},
			log: { info: () => undefined, warn: () => undefined, error: () => undefined },
		};
		const prepared = await prepareRun(
			{ workspaceRoot: root, question: 'q', signal: new AbortController().signal },
			host,
		);
		expect(kinds).toEqual(['host-environment', 'stdio-server']);
		if (!prepared.ok) throw new Error(`not prepared: ${prepared.refused}`);
		const run = startRun(prepared.run, host);
		const events: RunEvent[] = [];
		for await (const event of run.events) events.push(event);
		const { runDir } = await run.result;
		const notices = toolNotices(events);
		expect(learned?.needles).toEqual(expect.arrayContaining([secret, headerToken]));
		const joined = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
		expect(joined).toContain('streaming [redacted] and [redacted]');
		const everything = [
			JSON.stringify(events),
			joined,
			notices.join('\n'),
			...filesUnder(runDir).map((file) => readFileSync(file, 'utf8')),
		].join('\n');
		expect(everything).not.toContain(secret);
		expect(everything).not.toContain(headerToken);
		expect(everything).not.toContain(workspaceToken);
		expect(notices.join('\n')).toMatch(/MCP server 'wsleak' is unavailable: .*stderr: token \[redacted\]/);
		expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i));
	});
});
