/**
 * Folder trust is enforced in the core, whatever a shell does: `runSession` with a workspace team
 * config whose parts need trust, and no decision (or a stale one), starts no server process,
 * connects no server with host variables and sends no key to the workspace's host; with the
 * decision for exactly this listing, all three happen (the control).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ApprovalBroker } from '../../../src/core/permissions/approvalBroker.js';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import type { RunEvent } from '../../../src/contract/runEvents.js';
import { runSession } from '../../../src/core/run/runSession.js';
import { listWorkspaceTrust, type WorkspaceTrust } from '../../../src/core/trust/workspaceTrust.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { toolNotices } from '../../support/toolNotices.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { startHttpToolServer, type HttpToolServer } from '../../servers/mcp/httpServer.js';

const shippedConfigsDir = join(__dirname, '..', '..', '..', 'configs');
const userKey = 'sk-user-key-4f1c9e2b7a';
const userToken = 'ghp_usertoken9d3e1f0a';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
	await Promise.all(open.splice(0).map((server) => server.close()));
});

async function setUp() {
	const provider: LoopbackProvider = await startLoopbackProvider('responses', { auto: true });
	const http: HttpToolServer = await startHttpToolServer();
	open.push(provider, http);
	const yaml = stringify({
		agents: [
			{ id: 'remote', backend: { type: 'openai', model: 'gpt-5-mini', base_url: provider.baseUrl } },
			{
				id: 'local',
				backend: {
					type: 'scripted',
					script: { coordination: [{ answer: 'local answer' }, { vote: 'first' }] },
					mcp_servers: [
						{ name: 'helper', type: 'stdio', command: 'sh', args: ['-c', 'id > marker'] },
						{
							name: 'gh',
							type: 'streamable-http',
							url: `${http.url}?t=\${GITHUB_TOKEN}`,
							headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' },
						},
					],
				},
			},
		],
		timeout_settings: { orchestrator_timeout_seconds: 30 },
	});
	const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n', '.massgen/config.yaml': yaml });
	const file = join(root, '.massgen', 'config.yaml');
	const loaded = loadConfigText(yaml, file);
	expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
	const keys = { env: { OPENAI_API_KEY: userKey, GITHUB_TOKEN: userToken, PATH: process.env['PATH'] } };
	const run = async (workspaceTrust: WorkspaceTrust | undefined) => {
		const events: RunEvent[] = [];
		const outcome = await runSession({
			team: { config: loaded.config!, file },
			keys,
			workspaceRoot: root,
			question: 'What does a.ts export?',
			signal: new AbortController().signal,
			shippedConfigsDir,
			...(workspaceTrust ? { workspaceTrust } : {}),
			tools: {
				broker: new ApprovalBroker({ policy: () => ({ decision: 'deny' }) }),
				trusted: true,
			},
			onEvent: (event) => events.push(event),
		});
		return { outcome, notices: toolNotices(events), events };
	};
	const listing = await listWorkspaceTrust({ workspaceRoot: root, config: loaded.config!, file, keys });
	return { provider, http, root, run, listing };
}

const sawKey = (provider: LoopbackProvider) =>
	provider.requests.filter((request) => JSON.stringify(request.headers).includes(userKey)).length;
const sawToken = (http: HttpToolServer) =>
	http.headers.filter((h) => JSON.stringify(h).includes(userToken)).length;

describe('runSession enforces folder trust', () => {
	it('without a decision: no process, no connection with the token, no request with the key; each refusal names its part', async () => {
		const { provider, http, root, run, listing } = await setUp();
		expect(listing.items.map((item) => item.kind)).toEqual([
			'key-to-host',
			'stdio-server',
			'host-environment',
		]);
		const { outcome, notices, events } = await run(undefined);
		expect(existsSync(join(root, 'marker'))).toBe(false);
		expect(http.headers).toEqual([]);
		expect(provider.requests).toEqual([]);
		expect(notices).toEqual(
			expect.arrayContaining([
				expect.stringContaining(
					"MCP server 'helper' (from the workspace team config) was not started: it runs sh -c 'id > marker'",
				),
				expect.stringContaining(
					"MCP server 'gh' (from the workspace team config) was not connected: it sends GITHUB_TOKEN",
				),
			]),
		);
		const why = JSON.stringify(events);
		expect(why).toContain(
			`agent 'remote' is left out: it sends OPENAI_API_KEY (environment) to ${provider.baseUrl} (.massgen/config.yaml); the folder is not trusted`,
		);
		// The rest of the team goes on.
		expect(outcome.result.finalAnswer).toContain('local answer');
	});

	it('a decision for another listing (the config changed after the user looked) is no trust', async () => {
		const { provider, http, root, run } = await setUp();
		const { notices } = await run({ kind: 'trusted', hash: 'f'.repeat(64) });
		expect(existsSync(join(root, 'marker'))).toBe(false);
		expect(sawToken(http) + sawKey(provider)).toBe(0);
		expect(notices.join('\n')).toContain('these parts changed since the folder was trusted');
	});

	it('control: trusted for exactly this listing, the server starts, the token and the key are sent', async () => {
		const { provider, http, root, run, listing } = await setUp();
		await run({ kind: 'trusted', hash: listing.hash });
		expect(existsSync(join(root, 'marker'))).toBe(true);
		expect(sawToken(http)).toBeGreaterThan(0);
		expect(sawKey(provider)).toBeGreaterThan(0);
	});

	it("a workspace config's permissions.allow counts only with trust: untrusted its own tool call is asked (and denied); trusted it runs by the rule", async () => {
		const http = await startHttpToolServer();
		open.push(http);
		const yaml = stringify({
			agents: [
				{
					id: 'caller',
					backend: {
						type: 'scripted',
						script: {
							coordination: [
								{ tool_calls: [{ name: 'mcp__web__note', arguments: { text: 'hello' } }], answer: 'called' },
								{ vote: 'first' },
							],
						},
						// A literal loopback URL: this server itself needs no trust.
						mcp_servers: [{ name: 'web', type: 'streamable-http', url: http.url }],
					},
				},
				{
					id: 'checker',
					backend: {
						type: 'scripted',
						script: { latency_ms: 50, coordination: [{ answer: 'nothing' }, { vote: 'first' }] },
					},
				},
			],
			permissions: { allow: ['mcp(*)'] },
			timeout_settings: { orchestrator_timeout_seconds: 30 },
		});
		const root = makeWorkspaceDir({ '.massgen/config.yaml': yaml });
		const file = join(root, '.massgen', 'config.yaml');
		const config = loadConfigText(yaml, file).config!;
		const keys = { env: { PATH: process.env['PATH'] } };
		const listing = await listWorkspaceTrust({ workspaceRoot: root, config, file, keys });
		expect(listing.items.map((item) => item.kind)).toEqual(['allow-rules']);
		const decisions = async (workspaceTrust: WorkspaceTrust | undefined) => {
			const events: RunEvent[] = [];
			const outcome = await runSession({
				team: { config, file },
				keys,
				workspaceRoot: root,
				question: 'q',
				signal: new AbortController().signal,
				shippedConfigsDir,
				...(workspaceTrust ? { workspaceTrust } : {}),
				tools: {
					// --deny-all: whatever would be asked is denied.
					broker: new ApprovalBroker({ policy: () => ({ decision: 'deny' }) }),
					trusted: true,
				},
				onEvent: (event) => events.push(event),
			});
			const entries = outcome.ledger?.entries ?? [];
			return {
				notices: toolNotices(events),
				entries: entries.map((entry) => [entry.target, entry.decision, entry.via]),
			};
		};
		const untrusted = await decisions(undefined);
		expect(untrusted.entries).toEqual([['workspace:web/note', 'deny', expect.not.stringMatching(/^rule$/)]]);
		expect(untrusted.notices.join('\n')).toContain(
			"the workspace team config's permissions.allow is ignored: it lets these run without asking: mcp(*)",
		);
		const trusted = await decisions({ kind: 'trusted', hash: listing.hash });
		expect(trusted.entries).toEqual([['workspace:web/note', 'allow', 'rule']]);
	});
});
