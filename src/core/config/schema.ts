import { z } from 'zod';
import { backendSchema } from './backendSchema.js';
import { isCodingAgentType } from '../providers/spec/codingAgentTypes.js';
import { roleToolNames } from '../tools/toolRole.js';
import { didYouMeanSuffix } from './didYouMean.js';
import { isRecord } from './isRecord.js';
import {
	checklistWithoutCriteria,
	orchestratorSchema,
	timeoutSettingsSchema,
	uiSchema,
	type OrchestratorConfig,
} from './orchestratorSchema.js';
import { permissionsSchema } from './toolsSchema.js';

/** One agent as written in YAML; `id` defaults to `agent{i}` (1-based) after parsing. */
export const agentObject = z
	.object({
		id: z
			.string()
			.min(1)
			.optional()
			.describe('Shown in the UI and logs, never to a model. Default agent{i}.'),
		backend: backendSchema,
		system_message: z.string().optional().describe("The agent's role, added to its system prompt."),
		role: z
			.enum(['read-only'])
			.optional()
			.describe('read-only: no write tools, no run_command, only MCP tools their server marks read-only.'),
		tools: z
			.array(
				z
					.string()
					.min(1)
					.refine((name) => /^mcp__/.test(name) || roleToolNames.includes(name.replace(/\*$/, '')), {
						error: (issue) =>
							`unknown tool '${String(issue.input)}'${didYouMeanSuffix(String(issue.input), roleToolNames)} ` +
							`(known: ${roleToolNames.join(', ')}, and MCP tools as mcp__server__tool)`,
					}),
			)
			.optional()
			.describe(
				'Only these tools (a trailing * matches a prefix, e.g. mcp__github__*); workflow tools stay.',
			),
	})
	// A named definition, so the JSON Schema describes it once for both `agent` and `agents`.
	.meta({ id: 'ConfigAgent' });

/** The top level as written in YAML: exactly one of `agent` and `agents`. */
export const rootObject = z.object({
	agent: agentObject.optional().describe('A single agent (use either agent or agents).'),
	agents: z.array(agentObject).min(1).optional().describe('The team (use either agent or agents).'),
	orchestrator: orchestratorSchema.prefault({}),
	timeout_settings: timeoutSettingsSchema.prefault({}),
	ui: uiSchema.prefault({}),
	permissions: permissionsSchema
		.prefault({})
		.describe('Ours: allow/ask/deny rules for tools, approval timeout, run budget.'),
});

/**
 * A MassGen-compatible config (docs/config.md), normalised: always `agents`, every agent with an id,
 * every default applied. Parse with `loadConfigText` for positioned issues and warnings.
 */
export const massGenConfigSchema = rootObject
	.superRefine(
		(root, ctx) => {
			const { agent, agents } = root as Record<string, unknown>;
			if (agent !== undefined && agents !== undefined) {
				ctx.addIssue({
					code: 'custom',
					path: ['agents'],
					message: "use either 'agent' (one agent) or 'agents' (a list), not both",
					params: { code: 'agent-and-agents', target: 'key' },
				});
			}
			if (agent === undefined && agents === undefined) {
				ctx.addIssue({
					code: 'custom',
					path: [],
					message: "no agents: add 'agents:' (a list of agents) or 'agent:' (a single agent)",
					params: { code: 'no-agents' },
				});
			}
			const { orchestrator } = root as Record<string, unknown>;
			if (isRecord(orchestrator) && checklistWithoutCriteria(orchestrator as OrchestratorConfig)) {
				const inCoordination =
					isRecord(orchestrator.coordination) && orchestrator.coordination.voting_sensitivity !== undefined;
				ctx.addIssue({
					code: 'custom',
					path: ['orchestrator', ...(inCoordination ? ['coordination'] : []), 'voting_sensitivity'],
					message:
						'checklist_gated needs criteria: give orchestrator.coordination.checklist_criteria_inline, set ' +
						'evaluation_criteria_generator: { enabled: true }, or criteria_mode: bootstrap_inline',
					params: { code: 'checklist-without-criteria' },
				});
			}
			const entries: [unknown, (string | number)[]][] = Array.isArray(agents)
				? agents.map((entry: unknown, index) => [entry, ['agents', index]])
				: [[agent, ['agent']]];
			for (const [entry, at] of entries) {
				if (!isRecord(entry) || !isRecord(entry.backend) || !isCodingAgentType(entry.backend.type)) continue;
				for (const key of ['role', 'tools'].filter((name) => entry[name] !== undefined)) {
					ctx.addIssue({
						code: 'custom',
						path: [...at, key],
						message:
							`'${key}' cannot limit a coding agent (type ${String(entry.backend.type)}): it runs its own tools; ` +
							'limit them with allowed_tools / disallowed_tools in its backend',
						params: { code: 'role-coding-agent', target: 'key' },
					});
				}
			}
			if (!Array.isArray(agents)) return;
			const seen = new Map<string, number>();
			agents.forEach((entry: unknown, index) => {
				const explicit = isRecord(entry) && typeof entry.id === 'string';
				const id = explicit ? (entry.id as string) : `agent${index + 1}`;
				const first = seen.get(id);
				if (first === undefined) {
					seen.set(id, index);
					return;
				}
				ctx.addIssue({
					code: 'custom',
					path: explicit ? ['agents', index, 'id'] : ['agents', index],
					message:
						`duplicate id '${id}' (already used by agents[${first}])` +
						(explicit ? '' : "; this agent has no 'id' and defaults to it"),
					params: { code: 'duplicate-agent-id' },
				});
			});
			// `when`: check even when sibling keys are invalid, so every issue is reported at once.
		},
		{ when: (payload) => isRecord(payload.value) },
	)
	.transform(({ agent, agents, orchestrator, timeout_settings, ui, permissions }) => ({
		agents: (agents ?? (agent ? [agent] : [])).map(({ id, ...rest }, index) => ({
			id: id ?? `agent${index + 1}`,
			...rest,
		})),
		orchestrator,
		timeout_settings,
		ui,
		permissions,
	}));

/** The parsed, normalised config. */
export type MassGenConfig = z.output<typeof massGenConfigSchema>;
/** One agent of a parsed config (`id` always set). */
export type AgentConfig = MassGenConfig['agents'][number];
