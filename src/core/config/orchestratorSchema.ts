import { z } from 'zod';
import { checklistLimits, defaultOrchestratorSettings as runDefaults } from '../orchestrator/types.js';
import { defaultPermissionSettings as toolDefaults } from '../tools/permissionSettings.js';
import { secretPatternProblem } from '../workspace/secretPaths.js';

const seconds = (ms: number): number => ms / 1000;

const sensitivity = z.enum(['lenient', 'balanced', 'strict']);
const votingSensitivity = z.enum([...sensitivity.options, 'checklist_gated']);
const votingThreshold = z.number().int().min(1).max(10);

/** One given criterion (`checklist_criteria_inline`). */
const criterionSchema = z.object({
	text: z
		.string()
		.trim()
		.min(1)
		.refine((text) => Buffer.byteLength(text, 'utf8') <= checklistLimits.criterionBytes, {
			error: `a criterion is one sentence of at most ${checklistLimits.criterionBytes} bytes`,
		}),
	category: z.enum(['primary', 'standard', 'stretch']).default('standard'),
});

/** A directory or file outside the agents' copies that they may read (or the winner may write). */
export const contextPathSchema = z.object({
	path: z.string().min(1),
	permission: z.enum(['read', 'write']).default('read'),
	/** Relative to `path` (or absolute): never writable, even with `permission: write`. */
	protected_paths: z.array(z.string().min(1)).default([]),
});

/** MassGen's `orchestrator.coordination`: planning mode and post-evaluation are supported; its other keys warn. */
export const coordinationSchema = z.object({
	enable_planning_mode: z
		.boolean()
		.default(runDefaults.planningMode)
		.describe(
			'During coordination, tools that act outside the agent’s copy (MCP tools not marked read-only, commands with network) are described in answers, not run; the presenter runs them.',
		),
	planning_mode_instruction: z
		.string()
		.min(1)
		.optional()
		.describe('Replaces the planning-mode paragraph of the coordination prompt.'),
	max_orchestration_restarts: z
		.number()
		.int()
		.min(0)
		.max(5)
		.default(runDefaults.maxOrchestrationRestarts)
		.describe(
			'Post-evaluation: after the winner presents, it checks its answer and may restart coordination with its reasons, this many times at most.',
		),
	quorum: z
		.union([z.number().int().min(1), z.literal('majority')])
		.nullable()
		.default(runDefaults.quorum)
		.describe(
			'Coordination ends as soon as this many live agents (or a majority of them) vote for the same answer, without waiting for the rest; null = every live agent votes (MassGen).',
		),
	voting_sensitivity: votingSensitivity
		.optional()
		.describe(
			'As orchestrator.voting_sensitivity (MassGen reads it there); this one wins when both are set.',
		),
	voting_threshold: votingThreshold
		.optional()
		.describe('As orchestrator.voting_threshold; this one wins when both are set.'),
	checklist_criteria_inline: z
		.array(criterionSchema)
		.max(checklistLimits.givenCriteria)
		.optional()
		.describe(
			'With voting_sensitivity: checklist_gated: the criteria every agent scores each answer on (1–10) before it votes.',
		),
	evaluation_criteria_generator: z
		.object({ enabled: z.boolean().default(false) })
		.optional()
		.describe(
			'enabled: with no checklist_criteria_inline, one extra call of the first agent’s model writes the criteria from the task.',
		),
	criteria_mode: z
		.enum(['static', 'bootstrap_inline', 'bootstrap_subagent'])
		.refine((mode) => mode !== 'bootstrap_subagent', {
			error:
				"'bootstrap_subagent' (MassGen's critic agent between rounds) is not supported: use static or bootstrap_inline",
			params: { code: 'unsupported-value' },
		})
		.default('static')
		.describe(
			'bootstrap_inline: agents propose criteria the answers do not meet yet with their answers and votes; they join the checklist from the next round.',
		),
	bootstrap_max_per_agent_per_round: z
		.number()
		.int()
		.min(1)
		.max(10)
		.default(3)
		.describe('bootstrap_inline: criteria one agent may add per round.'),
	bootstrap_max_total: z
		.number()
		.int()
		.min(0)
		.max(checklistLimits.inForce)
		.default(30)
		.describe(
			'bootstrap_inline: proposed criteria kept; the oldest leave first (0 = up to the checklist’s limit).',
		),
});

/** MassGen's `orchestrator` plus our limits: `max_rounds`, `max_tool_calls_per_turn`, `protected_paths`, `secret_paths`. */
export const orchestratorSchema = z.object({
	context_paths: z.array(contextPathSchema).default([]),
	voting_sensitivity: votingSensitivity
		.default('lenient')
		.describe(
			'lenient, balanced, strict: prompt wording only (as in MassGen). checklist_gated: agents score every answer on the checklist (orchestrator.coordination) and may vote only for one that meets voting_threshold on every criterion.',
		),
	voting_threshold: votingThreshold
		.optional()
		.describe('checklist_gated: the score (1–10) a voted answer needs on every criterion; default 7.'),
	answer_novelty_requirement: sensitivity
		.default('lenient')
		.describe('balanced rejects answers >70% similar to an existing one, strict >50%.'),
	max_new_answers_per_agent: z
		.number()
		.int()
		.min(1)
		.nullable()
		.default(null)
		.describe('After this many accepted answers an agent must vote; null = unlimited.'),
	skip_coordination_rounds: z.boolean().default(false).describe('The first agent presents at once.'),
	max_rounds: z
		.number()
		.int()
		.min(1)
		.nullable()
		.default(null)
		.describe('Cap on coordination rounds; null = none.'),
	max_tool_calls_per_turn: z.number().int().min(1).default(runDefaults.maxToolCallsPerTurn),
	protected_paths: z
		.array(z.string().min(1))
		.default([])
		.describe('Workspace-relative paths that agents may never write.'),
	secret_paths: z
		.array(
			z
				.string()
				.min(1)
				.superRefine((pattern, ctx) => {
					const problem = secretPatternProblem(pattern);
					if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
				}),
		)
		.default([])
		.describe(
			'Globs (workspace-relative, case-insensitive; a name without / matches at any depth) of files no tool may read, list, search, copy or write, added to the built-in list (.env*, .npmrc, *.pem, .ssh/ …).',
		),
	coordination: coordinationSchema.optional(),
});

export type OrchestratorConfig = z.output<typeof orchestratorSchema>;

/**
 * A checklist needs criteria from somewhere: given, generated, or proposed by the agents. Read
 * before the whole config is valid (`massGenConfigSchema`'s check), so every value is as written.
 */
export function checklistWithoutCriteria(orchestrator: OrchestratorConfig): boolean {
	const coordination = orchestrator.coordination;
	const mode = coordination?.voting_sensitivity ?? orchestrator.voting_sensitivity;
	if (mode !== 'checklist_gated') return false;
	const criteriaMode: unknown = coordination?.criteria_mode;
	return (
		!coordination?.checklist_criteria_inline?.length &&
		coordination?.evaluation_criteria_generator?.enabled !== true &&
		criteriaMode !== 'bootstrap_inline' &&
		// Refused on its own (`criteria_mode`): one issue, not two.
		criteriaMode !== 'bootstrap_subagent'
	);
}

export type ContextPathConfig = z.output<typeof contextPathSchema>;

/** Top-level `timeout_settings` (MassGen has only the first key; the tool timeouts are ours). */
export const timeoutSettingsSchema = z.object({
	orchestrator_timeout_seconds: z
		.number()
		.positive()
		.default(seconds(runDefaults.coordinationTimeoutMs))
		.describe('Whole coordination phase.'),
	agent_timeout_seconds: z
		.number()
		.positive()
		.nullable()
		.default(null)
		.describe('One agent turn; null = none.'),
	presentation_timeout_seconds: z
		.number()
		.positive()
		.default(seconds(runDefaults.presentationTimeoutMs))
		.describe('Final presentation.'),
	command_timeout_seconds: z
		.number()
		.positive()
		.default(seconds(toolDefaults.commandTimeoutMs))
		.describe('One run_command call (its process group is killed).'),
	mcp_tool_timeout_seconds: z
		.number()
		.positive()
		.default(seconds(toolDefaults.mcpCallTimeoutMs))
		.describe('One MCP tool call.'),
});

export type TimeoutSettingsConfig = z.output<typeof timeoutSettingsSchema>;

/** Top-level `ui`; the CLI and the panel pick their own display, so these are hints. */
export const uiSchema = z.object({
	display_type: z.string().min(1).optional().describe('rich_terminal or simple.'),
	logging_enabled: z.boolean().optional(),
	use_orchestrator_for_single_agent: z.boolean().default(true),
});

export type UiConfig = z.output<typeof uiSchema>;
