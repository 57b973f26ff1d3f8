import { z } from 'zod';
import { defaultOrchestratorSettings as runDefaults } from '../orchestrator/types.js';
import { defaultPermissionSettings as toolDefaults } from '../tools/permissionSettings.js';
import { secretPatternProblem } from '../workspace/secretPaths.js';

const seconds = (ms: number): number => ms / 1000;

const sensitivity = z.enum(['lenient', 'balanced', 'strict']);

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
});

/** MassGen's `orchestrator` plus our limits: `max_rounds`, `max_tool_calls_per_turn`, `protected_paths`, `secret_paths`. */
export const orchestratorSchema = z.object({
	context_paths: z.array(contextPathSchema).default([]),
	voting_sensitivity: sensitivity.default('lenient').describe('Prompt wording only (as in MassGen).'),
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
