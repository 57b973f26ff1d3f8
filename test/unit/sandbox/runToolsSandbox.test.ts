/**
 * The run's tools pick the command sandbox once, before any toolbox is built: a real
 * orchestrator with a scripted team whose agent calls `run_command`, through `createRunTools`.
 */
import { describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../src/core/permissions/approvalBroker.js';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { toOrchestratorSettings, toRunToolSettings } from '../../../src/core/config/toSettings.js';
import type { RunEvent } from '../../../src/contract/runEvents.js';
import { Orchestrator } from '../../../src/core/orchestrator/orchestrator.js';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { buildAgents } from '../../../src/core/team/buildAgents.js';
import { createRunTools } from '../../../src/core/tools/guardedRunTools.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { toolNotices } from '../../support/toolNotices.js';

const yaml = (sandbox: string) => `
agents:
  - id: runner
    backend:
      type: scripted
      enable_command_execution: true
      script:
        coordination:
          - tool_calls:
              - name: run_command
                arguments: { command: "echo hello-from-the-command" }
            answer: Done.
          - vote: first
  - id: checker
    backend:
      type: scripted
      script:
        latency_ms: 50
        coordination:
          - answer: Fine.
          - vote: first
permissions:
  allow: ["command(echo *)"]
  command_sandbox: ${sandbox}
`;

async function run(options: { sandbox?: string; trusted?: boolean; env?: Record<string, string> }) {
	const config = loadConfigText(yaml(options.sandbox ?? 'required'), 'team.yaml').config!;
	const root = makeWorkspaceDir({ 'README.md': '# x\n' });
	const settings = toRunToolSettings(config, { configFromWorkspace: false });
	const tools = createRunTools({
		workspaceRoot: root,
		agents: settings.agents,
		permissions: settings.permissions,
		broker: new ApprovalBroker(),
		trusted: options.trusted ?? true,
		env: { PATH: process.env['PATH']!, ...options.env },
	});
	const { agents } = buildAgents(config, { keys: { env: {}, dotenv: {} } });
	const orchestrator = new Orchestrator({
		question: 'Run it',
		workspace: await createWorkspace(root),
		agents,
		settings: toOrchestratorSettings(config),
		tools,
	});
	const events: RunEvent[] = [];
	for await (const event of orchestrator.run()) events.push(event);
	const result = events.find((event) => event.type === 'tool-result' && event.name === 'run_command');
	return {
		events,
		notices: toolNotices(events),
		sandbox: events.find((event) => event.type === 'command-sandbox'),
		result,
		status: orchestrator.result?.status,
	};
}

const linux = process.platform === 'linux' && (await detectSandbox()).sandbox !== null;
const missing = { MASSGEN_BWRAP_PATH: '/nonexistent/bwrap' };

describe('createRunTools: the command sandbox of a run', () => {
	it.runIf(linux)(
		'offers run_command behind bubblewrap and says so with one event, without a warning',
		async () => {
			const r = await run({});
			expect(r.status).toBe('completed');
			expect(r.sandbox).toMatchObject({ mode: 'bubblewrap', network: false });
			expect(r.events.indexOf(r.sandbox!)).toBeLessThan(
				r.events.findIndex((event) => event.type === 'tool-call'),
			);
			expect(r.result).toMatchObject({
				isError: false,
				text: expect.stringContaining('hello-from-the-command'),
			});
			expect(r.notices).toEqual([]);
		},
	);

	it('without a sandbox run_command is not offered: the agent gets a tool error, the user a warning naming the opt-in', async () => {
		const r = await run({ env: missing });
		expect(r.status).toBe('completed');
		expect(r.sandbox).toMatchObject({ mode: 'off' });
		expect(r.result).toMatchObject({ isError: true });
		expect(JSON.stringify(r.result)).not.toContain('hello-from-the-command');
		expect(r.notices).toEqual([
			expect.stringMatching(/^run_command is off: .*permissions\.command_sandbox: allow-unsandboxed/),
		]);
	});

	it('with permissions.command_sandbox: allow-unsandboxed it runs without one, with a warning', async () => {
		const r = await run({ env: missing, sandbox: 'allow-unsandboxed' });
		expect(r.sandbox).toMatchObject({ mode: 'none' });
		expect(r.result).toMatchObject({
			isError: false,
			text: expect.stringContaining('hello-from-the-command'),
		});
		expect(r.notices).toEqual([expect.stringMatching(/^run_command: commands run WITHOUT a sandbox/)]);
	});

	it('an untrusted workspace: off, whatever the sandbox', async () => {
		const r = await run({ trusted: false, sandbox: 'allow-unsandboxed' });
		expect(r.sandbox).toMatchObject({
			mode: 'off',
			notice: 'run_command is off: the workspace is not trusted (commands would run its own scripts)',
		});
		expect(r.result).toMatchObject({ isError: true });
	});
});
