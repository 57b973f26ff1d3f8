import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { DiffSource } from '../core/context/attachment.js';
import { providerToolsModes, type ProviderToolsMode } from '../core/run/providerToolsDecision.js';
import { type InitArgs, parseInitArgs } from './initArgs.js';
import { hasRunPlanFlag, parsePlanArgs, parseRunPlanArgs, type PlanArgs } from './plan/planArgs.js';
import type { RevertCommand } from './revertCommand.js';
import { parseReviewArgs, type ReviewArgs } from './review/reviewArgs.js';
import type { ServeArgs } from './serve/serveArgs.js';
import { parseStatsArgs, type StatsArgs } from './stats/statsArgs.js';
import { notNegative, positiveNumber, takeAttachDiff, takeContinue } from './argWords.js';
import { UsageError } from './usageError.js';

export interface RunArgs {
	readonly kind: 'run';
	readonly question: string;
	readonly config?: string;
	readonly workspace: string;
	readonly json: boolean;
	readonly timeoutSeconds?: number;
	readonly apply: boolean;
	/** How tool approvals are answered: on the terminal, or automatically (`--yes`, `--deny-all`). */
	readonly approvals?: 'ask' | 'yes' | 'deny-all';
	/** `--unsandboxed-commands`: where no OS sandbox can start, run commands without one. */
	readonly unsandboxedCommands?: boolean;
	/** `--attach`: absolute paths (files, folders, images), in the order given. */
	readonly attach: readonly string[];
	/** `--attach-diff[=staged]`. */
	readonly attachDiff: readonly DiffSource[];
	/** `-`: stdin is the question (no other words) or a `text` attachment (after the question). */
	readonly stdin?: 'question' | 'attachment';
	/** `--continue [ID]`: follow up on a session or run (`id` undefined: the latest session). */
	readonly continue?: { readonly id: string | undefined };
	/** `--max-cost USD`, `--max-tokens N`: the run budget (the config's `max_cost_usd` counts too). */
	readonly maxCostUsd?: number;
	readonly maxTokens?: number;
	/** `--provider-tools`: the run's one decision on provider-side web search and code execution. */
	readonly providerTools?: ProviderToolsMode;
	/** `--trust-workspace`: trust the folder's own servers, CLI paths and key hosts for this run. */
	readonly trustWorkspace?: boolean;
	/** `--no-instructions`: the agents get none of the project's instruction files (`AGENTS.md` …). */
	readonly noInstructions?: boolean;
	/** `--inbox DIR`: each file that appears in DIR steers the run (docs/cli.md#steering-a-run). */
	readonly inbox?: string;
	/** `--comments FILE` (with `--continue RUN_ID`): the team revises that run's proposal with these review comments. */
	readonly comments?: string;
}

/** `massgen chat`: the run options that hold for every question of the conversation. */
export type ChatArgs = { readonly kind: 'chat' } & Pick<
	RunArgs,
	| 'config'
	| 'workspace'
	| 'timeoutSeconds'
	| 'approvals'
	| 'unsandboxedCommands'
	| 'continue'
	| 'providerTools'
	| 'trustWorkspace'
	| 'noInstructions'
>;

/** `massgen trust`: trust the folder's own config parts, forget them, or list trusted folders. */
export interface TrustArgs {
	readonly kind: 'trust';
	readonly action: 'trust' | 'revoke' | 'list';
	readonly workspace: string;
	readonly config?: string;
}

/** `massgen mcp`: the team as a stdio MCP server for the workspace (docs/cli.md). */
export interface McpArgs {
	readonly kind: 'mcp';
	readonly workspace: string;
	readonly config?: string;
	/** `--max-cost USD`, `--max-tokens N`: each call's run budget (the config's `max_cost_usd` counts too). */
	readonly maxCostUsd?: number;
	readonly maxTokens?: number;
	/** `--max-cost-per-day USD`: what the workspace's runs of the local day may spend (`mcp/callBudget.ts`). */
	readonly maxCostUsdPerDay?: number;
	/** `--no-instructions`: no call's agents get the project's instruction files. */
	readonly noInstructions?: boolean;
}

export type CliCommand =
	| RunArgs
	| TrustArgs
	| ChatArgs
	| {
			readonly kind: 'runs';
			readonly workspace: string;
			readonly json: boolean;
			/** `--keep N`, `--keep-days D`: retention before the listing (as `massgen.runs.keep`). */
			readonly keep?: { readonly count?: number; readonly days?: number };
	  }
	| {
			readonly kind: 'show';
			readonly workspace: string;
			readonly runId: string;
			readonly markdown: boolean;
			/** `--session`: every turn of the conversation that ends at the run. */
			readonly session: boolean;
	  }
	| RevertCommand
	| ReviewArgs
	| PlanArgs
	| StatsArgs
	| McpArgs
	| ServeArgs
	| InitArgs
	| { readonly kind: 'validate'; readonly file: string }
	| { readonly kind: 'version' }
	| { readonly kind: 'help' };

/** Parses argv (without node and script). Throws UsageError with a message for the user. */
export function parseCliArgs(argv: readonly string[], cwd: string): CliCommand {
	if (argv[0] === 'review') return parseReviewArgs(argv.slice(1), cwd);
	if (argv[0] === 'plan') return parsePlanArgs(argv.slice(1), cwd);
	if (argv[0] === 'stats') return parseStatsArgs(argv.slice(1), cwd);
	// MassGen's plan flags on run (--plan, --plan-and-execute, --execute-plan) make it a plan command.
	if (argv[0] === 'run' && hasRunPlanFlag(argv.slice(1))) return parseRunPlanArgs(argv.slice(1), cwd);
	if (argv[0] === 'init') {
		const init = parseInitArgs(argv.slice(1), cwd);
		if ('error' in init) throw new UsageError(init.error);
		return init;
	}
	const { rest: afterDiff, diffs } = takeAttachDiff(argv);
	const { rest: args, continued } = takeContinue(afterDiff);
	let parsed;
	try {
		parsed = parseArgs({
			args,
			allowPositionals: true,
			strict: true,
			tokens: true,
			options: {
				config: { type: 'string' },
				workspace: { type: 'string' },
				json: { type: 'boolean', default: false },
				timeout: { type: 'string' },
				'max-cost': { type: 'string' },
				'max-tokens': { type: 'string' },
				'max-cost-per-day': { type: 'string' },
				apply: { type: 'boolean', default: false },
				yes: { type: 'boolean', short: 'y', default: false },
				'deny-all': { type: 'boolean', default: false },
				'unsandboxed-commands': { type: 'boolean', default: false },
				'trust-workspace': { type: 'boolean', default: false },
				'no-instructions': { type: 'boolean', default: false },
				revoke: { type: 'boolean', default: false },
				list: { type: 'boolean', default: false },
				'provider-tools': { type: 'string' },
				inbox: { type: 'string' },
				comments: { type: 'string' },
				attach: { type: 'string', multiple: true, default: [] },
				markdown: { type: 'boolean', default: false },
				session: { type: 'boolean', default: false },
				markers: { type: 'boolean', default: false },
				keep: { type: 'string' },
				'keep-days': { type: 'string' },
				host: { type: 'string' },
				port: { type: 'string' },
				token: { type: 'string' },
				'request-timeout': { type: 'string' },
				version: { type: 'boolean', default: false },
				help: { type: 'boolean', short: 'h', default: false },
			},
		});
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	const { values, positionals, tokens } = parsed;
	if (values.version) return { kind: 'version' };
	if (values.help || positionals.length === 0) return { kind: 'help' };
	const [command, ...rest] = positionals;
	const given = tokens.flatMap((token) => (token.kind === 'option' ? [token.name] : []));
	if (continued && command !== 'run' && command !== 'chat') {
		throw new UsageError('--continue is an option of run and chat');
	}
	if (command === 'runs' || command === 'show') {
		const allowed =
			command === 'runs' ? ['workspace', 'json', 'keep', 'keep-days'] : ['workspace', 'markdown', 'session'];
		const wrong = given.find((name) => !allowed.includes(name));
		if (wrong !== undefined || diffs.length > 0) {
			throw new UsageError(`--${wrong ?? 'attach-diff'} is not an option of ${command}`);
		}
		const workspace = values.workspace ?? cwd;
		if (command === 'runs') {
			if (rest.length > 0) throw new UsageError('runs takes no arguments');
			const count = notNegative(values.keep, '--keep', true);
			const days = notNegative(values['keep-days'], '--keep-days', false);
			const keep = { ...(count !== undefined ? { count } : {}), ...(days !== undefined ? { days } : {}) };
			return {
				kind: 'runs',
				workspace,
				json: values.json ?? false,
				...(count !== undefined || days !== undefined ? { keep } : {}),
			};
		}
		if (rest.length !== 1) throw new UsageError('show takes exactly one RUN_ID (massgen runs lists them)');
		const markdown = values.markdown ?? false;
		return { kind: 'show', workspace, runId: rest[0]!, markdown, session: values.session ?? false };
	}
	if (command === 'revert') {
		const wrong = given.find((name) => name !== 'workspace' && name !== 'markers');
		if (wrong !== undefined || diffs.length > 0) {
			throw new UsageError(`--${wrong ?? 'attach-diff'} is not an option of revert`);
		}
		if (rest.length !== 1) throw new UsageError('revert takes exactly one RUN_ID (massgen runs lists them)');
		return {
			kind: 'revert',
			workspace: values.workspace ?? cwd,
			runId: rest[0]!,
			markers: values.markers ?? false,
		};
	}
	if (command === 'serve') return serveArgs(given, values, rest, diffs, cwd);
	const serveOnly = given.find((name) => ['host', 'port', 'token', 'request-timeout'].includes(name));
	if (serveOnly !== undefined) throw new UsageError(`--${serveOnly} is an option of serve`);
	if (command === 'trust') {
		const wrong = given.find((name) => !['workspace', 'config', 'revoke', 'list'].includes(name));
		if (wrong !== undefined || diffs.length > 0) {
			throw new UsageError(`--${wrong ?? 'attach-diff'} is not an option of trust`);
		}
		if (rest.length > 0) throw new UsageError('trust takes no arguments (--workspace DIR names the folder)');
		if (values.revoke && values.list) throw new UsageError('use either --revoke or --list, not both');
		const action = values.revoke ? 'revoke' : values.list ? 'list' : 'trust';
		return {
			kind: 'trust',
			action,
			workspace: values.workspace ?? cwd,
			...(values.config !== undefined ? { config: resolve(cwd, values.config) } : {}),
		};
	}
	if (command === 'mcp') {
		const options = ['workspace', 'config', 'max-cost', 'max-tokens', 'max-cost-per-day', 'no-instructions'];
		const wrong = given.find((name) => !options.includes(name));
		if (wrong !== undefined || diffs.length > 0) {
			throw new UsageError(`--${wrong ?? 'attach-diff'} is not an option of mcp`);
		}
		if (rest.length > 0) throw new UsageError('mcp takes no arguments (its client asks the questions)');
		const maxCostUsd = positiveNumber(values['max-cost'], '--max-cost', 'USD amount');
		const maxTokens = positiveNumber(values['max-tokens'], '--max-tokens', 'whole number of tokens');
		if (maxTokens !== undefined && !Number.isInteger(maxTokens)) {
			throw new UsageError(`--max-tokens must be a whole number of tokens, not '${values['max-tokens']}'`);
		}
		const perDay = positiveNumber(values['max-cost-per-day'], '--max-cost-per-day', 'USD amount');
		return {
			kind: 'mcp',
			workspace: resolve(cwd, values.workspace ?? cwd),
			...(values.config !== undefined ? { config: resolve(cwd, values.config) } : {}),
			...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
			...(maxTokens !== undefined ? { maxTokens } : {}),
			...(perDay !== undefined ? { maxCostUsdPerDay: perDay } : {}),
			...(values['no-instructions'] ? { noInstructions: true } : {}),
		};
	}
	if (values['max-cost-per-day'] !== undefined) {
		throw new UsageError('--max-cost-per-day is an option of mcp');
	}
	if (values.revoke || values.list) {
		throw new UsageError(`--${values.revoke ? 'revoke' : 'list'} is an option of trust`);
	}
	if (values.markers) throw new UsageError('--markers is an option of revert');
	if (values.keep !== undefined || values['keep-days'] !== undefined) {
		throw new UsageError(`--${values.keep !== undefined ? 'keep' : 'keep-days'} is an option of runs`);
	}
	if (values.markdown || values.session) {
		throw new UsageError(`--${values.markdown ? 'markdown' : 'session'} is an option of show`);
	}
	if (command === 'validate') {
		if (rest.length !== 1) throw new UsageError('validate takes exactly one FILE');
		return { kind: 'validate', file: rest[0]! };
	}
	if (command !== 'run' && command !== 'chat') throw new UsageError(`unknown command '${command}'`);
	if (command === 'chat') {
		const wrong = given.find((name) =>
			['json', 'apply', 'attach', 'max-cost', 'max-tokens', 'inbox'].includes(name),
		);
		if (wrong !== undefined || diffs.length > 0) {
			throw new UsageError(`--${wrong ?? 'attach-diff'} is not an option of chat`);
		}
		if (rest.length > 0) throw new UsageError('chat takes no QUESTION: it asks for one');
	}
	const dashes = rest.filter((word) => word === '-').length;
	if (dashes > 1) throw new UsageError('give - (read stdin) at most once');
	const question = rest
		.filter((word) => word !== '-')
		.join(' ')
		.trim();
	if (!question && dashes === 0 && command === 'run' && values.comments === undefined) {
		throw new UsageError('run needs a QUESTION');
	}
	if (values.attach?.some((path) => path.trim() === '')) throw new UsageError('--attach needs a PATH');
	if (values.inbox !== undefined && values.inbox.trim() === '') throw new UsageError('--inbox needs a DIR');
	if (values.comments !== undefined) {
		if (command !== 'run') throw new UsageError('--comments is an option of run');
		if (values.comments.trim() === '') throw new UsageError('--comments needs a FILE');
		if (!continued?.id) {
			throw new UsageError('--comments needs --continue RUN_ID: the run whose proposal the comments are on');
		}
	}
	let timeoutSeconds: number | undefined;
	if (values.timeout !== undefined) {
		timeoutSeconds = Number(values.timeout);
		if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
			throw new UsageError(`--timeout must be a positive number of seconds, not '${values.timeout}'`);
		}
	}
	const maxCostUsd = positiveNumber(values['max-cost'], '--max-cost', 'USD amount');
	const maxTokens = positiveNumber(values['max-tokens'], '--max-tokens', 'whole number of tokens');
	if (maxTokens !== undefined && !Number.isInteger(maxTokens)) {
		throw new UsageError(`--max-tokens must be a whole number of tokens, not '${values['max-tokens']}'`);
	}
	if (values.yes && values['deny-all']) throw new UsageError('use either --yes or --deny-all, not both');
	const approvals = values.yes ? 'yes' : values['deny-all'] ? 'deny-all' : 'ask';
	const toolsMode = values['provider-tools'];
	if (toolsMode !== undefined && !providerToolsModes.includes(toolsMode as ProviderToolsMode)) {
		throw new UsageError(`--provider-tools must be allow, ask or deny, not '${toolsMode}'`);
	}
	const providerTools = toolsMode === undefined ? {} : { providerTools: toolsMode as ProviderToolsMode };
	if (command === 'chat') {
		return {
			kind: 'chat',
			config: values.config,
			workspace: values.workspace ?? cwd,
			timeoutSeconds,
			approvals,
			...(values['unsandboxed-commands'] ? { unsandboxedCommands: true } : {}),
			...(values['trust-workspace'] ? { trustWorkspace: true } : {}),
			...(values['no-instructions'] ? { noInstructions: true } : {}),
			...(continued ? { continue: continued } : {}),
			...providerTools,
		};
	}
	return {
		kind: 'run',
		question,
		config: values.config,
		workspace: values.workspace ?? cwd,
		json: values.json ?? false,
		timeoutSeconds,
		apply: values.apply ?? false,
		approvals,
		...(values['unsandboxed-commands'] ? { unsandboxedCommands: true } : {}),
		...(values['trust-workspace'] ? { trustWorkspace: true } : {}),
		...(values['no-instructions'] ? { noInstructions: true } : {}),
		attach: (values.attach ?? []).map((path) => resolve(cwd, path)),
		attachDiff: diffs,
		...(dashes ? { stdin: question ? 'attachment' : 'question' } : {}),
		...(continued ? { continue: continued } : {}),
		...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
		...(maxTokens !== undefined ? { maxTokens } : {}),
		...(values.inbox !== undefined ? { inbox: resolve(cwd, values.inbox) } : {}),
		...(values.comments !== undefined ? { comments: resolve(cwd, values.comments) } : {}),
		...providerTools,
	};
}

function serveArgs(
	given: readonly string[],
	values: {
		host?: string;
		port?: string;
		token?: string;
		config?: string;
		workspace?: string;
		'request-timeout'?: string;
	},
	rest: readonly string[],
	diffs: readonly DiffSource[],
	cwd: string,
): ServeArgs {
	const allowed = ['host', 'port', 'token', 'config', 'workspace', 'request-timeout'];
	const wrong = given.find((name) => !allowed.includes(name));
	if (wrong !== undefined || diffs.length > 0) {
		throw new UsageError(`--${wrong ?? 'attach-diff'} is not an option of serve`);
	}
	if (rest.length > 0) throw new UsageError('serve takes no arguments');
	const port = Number(values.port ?? '8000');
	if (!/^\d+$/.test(values.port ?? '8000') || port > 65535) {
		throw new UsageError(`--port must be a port number (0: any free port), not '${values.port}'`);
	}
	if (values.token !== undefined && values.token.trim() === '') throw new UsageError('--token needs a value');
	const timeout = positiveNumber(values['request-timeout'], '--request-timeout', 'number of seconds') ?? 30;
	return {
		kind: 'serve',
		host: values.host ?? '127.0.0.1',
		port,
		...(values.config !== undefined ? { config: resolve(cwd, values.config) } : {}),
		workspace: values.workspace ?? cwd,
		...(values.token !== undefined ? { token: values.token } : {}),
		requestTimeoutSeconds: timeout,
	};
}
