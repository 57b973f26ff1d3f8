import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/contract/runEvents.js';
import { ApprovalBroker } from '../../../src/core/permissions/approvalBroker.js';
import { prepareRun, type PrepareOutcome } from '../../../src/core/run/prepareRun.js';
import type { RunHost, RunRequest } from '../../../src/core/run/runHost.js';
import { startRun } from '../../../src/core/run/startRun.js';
import type { TeamResolution } from '../../../src/core/team/resolveTeam.js';
import type { TrustListing } from '../../../src/core/trust/workspaceTrust.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackTeam } from '../../servers/loopbackTeam.js';
import { toolNotices } from '../../support/toolNotices.js';

const shippedConfigsDir = join(__dirname, '..', '..', '..', 'configs');

/** Two scripted agents: no key, no network; `server` adds a workspace stdio MCP server to the first. */
const team = (server = '') => `
agents:
  - id: a
    backend:
      type: scripted${server}
      script:
        coordination:
          - answer: Alpha.
          - vote: first
  - id: b
    backend:
      type: scripted
      script:
        coordination:
          - vote: first
`;

const dotenvSecret = 'dotenv-value-PRIVATE-123456';

/** A host with every answer recorded; `trust` is its decision on the listing. */
function host(options: { trusted?: boolean; trust?: 'yes' | 'no-answer' | 'stop'; named?: string } = {}) {
	const seen = { teams: [] as TeamResolution[], listings: [] as TrustListing[], log: [] as string[] };
	const port: RunHost = {
		paths: { shippedConfigsDir },
		env: { PATH: process.env['PATH'] },
		workspaceTrusted: options.trusted ?? true,
		// No name: the core's rule takes the workspace's `.massgen/config.yaml` (a trusted workspace).
		namedConfig: () => (options.named ? { file: options.named } : undefined),
		onTeam: (resolution) => void seen.teams.push(resolution),
		decideTrust: async (listing) => {
			seen.listings.push(listing);
			if (options.trust === 'stop') return null;
			return options.trust === 'no-answer' ? undefined : { kind: 'trusted', hash: listing.hash };
		},
		log: {
			info: (message) => void seen.log.push(`info: ${message}`),
			warn: (message) => void seen.log.push(`warn: ${message}`),
			error: (message) => void seen.log.push(`error: ${message}`),
		},
	};
	return { port, seen };
}

const request = (root: string, more: Partial<RunRequest> = {}): RunRequest => ({
	question: 'Which letter?',
	workspaceRoot: root,
	signal: new AbortController().signal,
	...more,
});

function prepared(outcome: PrepareOutcome) {
	if (!outcome.ok) throw new Error(`not prepared: ${outcome.refused}`);
	return outcome.run;
}

describe('prepareRun: what both shells assembled by hand, once', () => {
	it('reads .env only when the host trusts the workspace, and seeds the redactor with what it read', async () => {
		const root = makeWorkspaceDir({ '.massgen/config.yaml': team(), '.env': `API_TOKEN=${dotenvSecret}\n` });
		const trusted = prepared(await prepareRun(request(root), host({ trusted: true }).port));
		expect(trusted.keys.dotenv).toEqual({ API_TOKEN: dotenvSecret });
		expect(trusted.redactor.text(`token ${dotenvSecret}`)).not.toContain(dotenvSecret);
		// Untrusted, the workspace's own config is not used: the user names one outside it.
		const named = join(makeWorkspaceDir({ 'team.yaml': team() }), 'team.yaml');
		const untrusted = prepared(await prepareRun(request(root), host({ trusted: false, named }).port));
		expect(untrusted.keys.dotenv).toEqual({});
		expect(untrusted.redactor.text(`token ${dotenvSecret}`)).toContain(dotenvSecret);
	});

	it('a config with errors: no run, and the host is given each issue with its line and column', async () => {
		const root = makeWorkspaceDir({
			'.massgen/config.yaml': 'agents:\n  - id: a\n    backend: { type: nope }\n',
		});
		const { port, seen } = host();
		const outcome = await prepareRun(request(root), port);
		expect(outcome).toMatchObject({ ok: false, refused: 'team' });
		expect(seen.teams).toHaveLength(1);
		const issues = seen.teams[0]!.ok ? [] : seen.teams[0]!.issues;
		expect(issues.length).toBeGreaterThan(0);
		expect(issues[0]).toMatchObject({ file: join(root, '.massgen', 'config.yaml'), line: 3 });
		expect(seen.listings).toEqual([]);
	});

	it('a follow-up of a run this workspace does not have: no run, the reason', async () => {
		const root = makeWorkspaceDir({ '.massgen/config.yaml': team() });
		const outcome = await prepareRun(
			request(root, { followUp: { from: '20250101-000000-abcd' } }),
			host().port,
		);
		expect(outcome).toMatchObject({ ok: false, refused: 'follow-up' });
		expect(outcome.ok ? '' : 'message' in outcome ? outcome.message : '').toContain('20250101-000000-abcd');
	});

	it("asks the host about the workspace's own parts before anything runs; null stops the run", async () => {
		const server = `
      mcp_servers:
        - name: helper
          type: stdio
          command: sh
          args: ["-c", "touch marker"]`;
		const root = makeWorkspaceDir({ '.massgen/config.yaml': team(server) });
		const { port, seen } = host({ trust: 'stop' });
		expect(await prepareRun(request(root), port)).toMatchObject({ ok: false, refused: 'trust' });
		expect(seen.listings[0]!.items.map((item) => item.kind)).toContain('stdio-server');
		// No decision: the run goes on without the part, and says so right after run-start.
		const asked = host({ trust: 'no-answer' });
		const withTools: RunHost = {
			...asked.port,
			tools: { broker: new ApprovalBroker({ policy: () => ({ decision: 'deny' }) }), trusted: true },
		};
		const run = prepared(await prepareRun(request(root), withTools));
		expect(run.workspaceTrust).toBeUndefined();
		const handle = startRun(run, withTools);
		const events: RunEvent[] = [];
		for await (const event of handle.events) events.push(event);
		await handle.result;
		expect(events[0]?.type).toBe('run-start');
		expect(events[1]).toMatchObject({ type: 'notice', source: 'tools' });
		expect(toolNotices(events).join('\n')).toContain(
			"MCP server 'helper' (from the workspace team config) was not started",
		);
		expect(existsSync(join(root, 'marker'))).toBe(false);
	});

	it('startRun: the event stream from run-start to run-end, as events.jsonl has it, then the result', async () => {
		const root = makeWorkspaceDir({ '.massgen/config.yaml': team(), 'a.txt': 'a\n' });
		const { port } = host();
		const handle = startRun(prepared(await prepareRun(request(root), port)), port);
		const events: RunEvent[] = [];
		for await (const event of handle.events) events.push(event);
		const outcome = await handle.result;
		expect(events[0]?.type).toBe('run-start');
		expect(events.at(-1)?.type).toBe('run-end');
		expect(outcome.result.status).toBe('completed');
		expect(outcome.result.finalAnswer).toBeTruthy();
		expect(handle.started).toEqual({ runDir: outcome.runDir, runId: outcome.result.runId });
		const onDisk = readFileSync(join(outcome.runDir, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as RunEvent);
		expect(onDisk).toEqual(events);
		expect(handle.stopAgent('a')).toBe(false);
	});

	it("a caller's own conversation (history) reaches every agent's first request; no session is continued", async () => {
		const loopback = await startLoopbackTeam();
		try {
			const root = makeWorkspaceDir({ '.massgen/config.yaml': loopback.configYaml() });
			const { port } = host();
			const history = [{ question: 'What does a.ts export?', answer: 'The constant a.' }];
			const handle = startRun(prepared(await prepareRun(request(root, { history }), port)), port);
			for await (const _ of handle.events);
			const outcome = await handle.result;
			expect(outcome.result.status).toBe('completed');
			// A new session of its own: the conversation lives with the caller, not in the run store.
			expect(outcome.result.session).toEqual({ id: outcome.result.runId, parentRunId: null });
			const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
			for (const [name, server] of Object.entries(loopback.servers)) {
				expect(server.requests[0]?.rawBody, name).toContain(
					escaped('<CONVERSATION_HISTORY>\nUser: What does a.ts export?'),
				);
				expect(server.requests[0]?.rawBody, name).toContain(escaped('Assistant: The constant a.'));
			}
		} finally {
			await loopback.close();
		}
	});
});
