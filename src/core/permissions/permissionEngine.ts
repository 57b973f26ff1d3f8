/**
 * The permission engine (docs/tools-and-sandbox.md): one decision function for every tool call that
 * leaves the workspace overlay (commands, MCP tools, any future tool of any backend).
 *
 * Order: the hardline floor (never overridable) → deny rules → ask rules → allow rules →
 * the risk classifier. Deny wins over ask, ask over allow, across every rule source. A command
 * line is split into parts and every part must pass; substitutions, `eval` and nested shells
 * cannot be waved through by a glob rule (only by an exact rule for the whole line).
 */
import { hardlineForCommand, hardlineForTool } from './hardline.js';
import {
	classifyCommand,
	classifyFeatures,
	classifyMcpTool,
	classifyPart,
	maxRisk,
	opaqueFeatures,
	type Risk,
	type ToolHints,
} from './riskClassifier.js';
import { compileRule, describeRule, findRule, type CompiledRule, type RuleInput } from './rules.js';
import type { CommandPart } from './shellAnalysis.js';
import { analyseShell } from './shellCommand.js';

export interface PermissionRequest {
	/** Config id of the agent asking. */
	readonly agentId: string;
	/** The model-facing tool name (`run_command`, `mcp__github__create_issue`). */
	readonly tool: string;
	/** What kind of action: `command`, `mcp`, or any other tool family. */
	readonly action: string;
	/** What the rules match: the command line, `server/tool` for MCP. */
	readonly target: string;
	readonly args: Readonly<Record<string, unknown>>;
	/** Commands: the workspace-relative folder they run in. */
	readonly cwd?: string;
	/** MCP tool annotations. */
	readonly hints?: ToolHints;
}

export type PermissionDecision = 'allow' | 'ask' | 'deny';

export interface PermissionVerdict {
	readonly decision: PermissionDecision;
	/** What decided: the hardline floor, a rule, or the risk classifier. */
	readonly via: 'hardline' | 'rule' | 'risk';
	readonly rule?: RuleInput;
	readonly risk: Risk;
	/** One line for the user and the model: why this decision. */
	readonly reason: string;
}

/** Per-agent command filters from MassGen's `command_line_allowed_commands` / `_blocked_commands` (regex, matched at the start). */
/** A compiled `command_line_*_commands` regex (linear-time: a model's command cannot make it backtrack). */
export interface CommandMatcher {
	readonly source: string;
	test(text: string): boolean;
}

export interface CommandFilters {
	readonly allowed: readonly CommandMatcher[];
	readonly blocked: readonly CommandMatcher[];
}

/** Where "always allow" decisions persist (the caller implements it: VS Code workspace state, a CLI file). */
export interface PermissionStore {
	/** The persisted rules, e.g. `command(npm test)`; read on every decision. */
	rules(): readonly string[];
	/** Persists an allow rule; resolves once saved. */
	add(rule: string): Promise<void> | void;
}

export interface PermissionEngineOptions {
	/** Rules from the config and the caller; invalid patterns must be rejected before (see `compileRuleLists`). */
	readonly rules?: readonly RuleInput[];
	readonly store?: PermissionStore;
	/** Per agent id. */
	readonly commandFilters?: ReadonlyMap<string, CommandFilters>;
}

/** Longer command lines are refused unanalysed (see `evaluateCommand`). */
export const maxCommandChars = 8_000;

export class PermissionEngine {
	private readonly rules: CompiledRule[];
	private storeCache: { readonly key: string; readonly rules: CompiledRule[] } | undefined;

	constructor(private readonly options: PermissionEngineOptions = {}) {
		this.rules = (options.rules ?? []).map(compileRule);
	}

	/** Adds a rule for the rest of this engine's life (e.g. "allow for this run"). */
	addRule(rule: RuleInput): void {
		if (!this.rules.some((r) => r.effect === rule.effect && r.pattern === rule.pattern)) {
			this.rules.push(compileRule(rule));
		}
	}

	evaluate(request: PermissionRequest): PermissionVerdict {
		if (request.action === 'command') return this.evaluateCommand(request);
		const hardline = hardlineForTool(request.tool, request.args as Record<string, unknown>);
		if (hardline !== null) {
			return {
				decision: 'deny',
				via: 'hardline',
				risk: { level: 'high', reasons: [hardline] },
				reason: `refused by the safety floor: ${hardline}`,
			};
		}
		const risk =
			request.action === 'mcp'
				? classifyMcpTool(request.target, request.hints)
				: { level: 'medium' as const, reasons: [`${request.action} ${request.target}`] };
		const views = [
			{ action: request.action, targets: [request.target] },
			{ action: 'tool', targets: [request.tool] },
		];
		const rules = this.allRules();
		const denied = views.map((view) => findRule(rules, 'deny', view.action, view.targets)).find(Boolean);
		if (denied !== undefined) return ruleVerdict(denied, risk);
		const granted = userGrant(rules, request.action, request.target);
		if (granted !== undefined) return ruleVerdict(granted, risk);
		for (const effect of ['ask', 'allow'] as const) {
			for (const view of views) {
				const rule = findRule(rules, effect, view.action, view.targets);
				if (rule !== undefined) return ruleVerdict(rule, risk);
			}
		}
		return riskVerdict(risk);
	}

	private evaluateCommand(request: PermissionRequest): PermissionVerdict {
		const line = request.target.trim();
		// The shell analysis and rule matching are superlinear on hostile text (100 KB of `a|a|…` took
		// over 20 s, blocking the engine): a command line this long is refused before it is analysed.
		if (line.length > maxCommandChars) {
			const why = `the command has ${line.length} characters (at most ${maxCommandChars}): write a script with write_file and run that`;
			return {
				decision: 'deny',
				via: 'hardline',
				risk: { level: 'high', reasons: [why] },
				reason: `refused by the safety floor: ${why}`,
			};
		}
		const analysis = analyseShell(line);
		const risk = classifyCommand(analysis, request.cwd);
		const hardline = hardlineForCommand(analysis);
		if (hardline !== null) {
			return {
				decision: 'deny',
				via: 'hardline',
				risk: maxRisk(risk, { level: 'high', reasons: [hardline] }),
				reason: `refused by the safety floor: ${hardline}`,
			};
		}
		const parts = analysis.parts.filter((part) => part.words.length > 0);
		const filtered = this.filter(request.agentId, parts);
		if (filtered !== null) {
			return { decision: 'deny', via: 'rule', rule: filtered.rule, risk, reason: filtered.reason };
		}

		const rules = this.allRules();
		const views = (part: CommandPart) => [
			part.text,
			part.program.join(' '),
			[part.name, ...part.program.slice(1)].join(' '),
		];
		const everyView = [line, ...parts.flatMap(views)];
		const denied =
			findRule(rules, 'deny', 'command', everyView) ?? findRule(rules, 'deny', 'tool', [request.tool]);
		if (denied !== undefined) return ruleVerdict(denied, risk);
		// The user's own decision on this exact line ("allow for this run", "always allow") beats ask rules and risk.
		const granted = userGrant(rules, 'command', line);
		if (granted !== undefined) return ruleVerdict(granted, risk);
		const asked =
			findRule(rules, 'ask', 'command', everyView) ?? findRule(rules, 'ask', 'tool', [request.tool]);
		if (asked !== undefined) return ruleVerdict(asked, risk);
		const whole = rules.find(
			(rule) => rule.effect === 'allow' && rule.exact && rule.action === 'command' && rule.matches(line),
		);
		if (whole !== undefined) return ruleVerdict(whole, risk);
		const opaque = [...analysis.features].filter((feature) => opaqueFeatures.has(feature));
		if (opaque.length > 0) return riskVerdict({ level: 'high', reasons: risk.reasons });
		const toolRule = findRule(rules, 'allow', 'tool', [request.tool]);
		if (toolRule !== undefined) return ruleVerdict(toolRule, risk);
		// Every part must pass: allowed by a rule matching it as written, or low risk on its own.
		const failing: Risk[] = [];
		let lastRule: CompiledRule | undefined;
		for (const part of parts) {
			const rule = findRule(rules, 'allow', 'command', [part.text]);
			if (rule !== undefined) {
				lastRule = rule;
				continue;
			}
			const partRisk = classifyPart(part, request.cwd);
			if (partRisk.level !== 'low') failing.push(partRisk);
		}
		// Line-level features that are not parts (a here-document, a background job) ask too.
		const lineRisk = classifyFeatures(analysis.features);
		if (failing.length === 0 && lineRisk.level === 'low') {
			return lastRule !== undefined ? ruleVerdict(lastRule, risk) : riskVerdict(risk);
		}
		return riskVerdict(maxRisk(...failing, lineRisk));
	}

	/** MassGen's per-agent regex filters: blocked → deny; allowed (when set) → anything else denied. */
	private filter(agentId: string, parts: readonly CommandPart[]): { rule: RuleInput; reason: string } | null {
		const filters = this.options.commandFilters?.get(agentId);
		if (filters === undefined) return null;
		for (const part of parts) {
			const text = part.program.join(' ') || part.text;
			const blocked = filters.blocked.find((regex) => regex.test(text));
			if (blocked !== undefined) {
				const rule: RuleInput = {
					effect: 'deny',
					pattern: `command_line_blocked_commands: ${blocked.source}`,
					source: 'config',
				};
				return { rule, reason: `'${text}' matches command_line_blocked_commands (${blocked.source})` };
			}
			if (filters.allowed.length > 0 && !filters.allowed.some((regex) => regex.test(text))) {
				const rule: RuleInput = {
					effect: 'deny',
					pattern: 'command_line_allowed_commands',
					source: 'config',
				};
				return { rule, reason: `'${text}' is not in command_line_allowed_commands` };
			}
		}
		return null;
	}

	private allRules(): CompiledRule[] {
		const persisted = this.options.store?.rules() ?? [];
		const key = persisted.join('\n');
		if (this.storeCache?.key !== key) {
			const rules = persisted.flatMap((pattern) => {
				try {
					return [compileRule({ effect: 'allow', pattern, source: 'always' })];
				} catch {
					return [];
				}
			});
			this.storeCache = { key, rules };
		}
		return [...this.rules, ...this.storeCache.rules];
	}
}

/** An exact allow rule from a user decision (this run, or persisted) for exactly this target. */
function userGrant(rules: readonly CompiledRule[], action: string, target: string): CompiledRule | undefined {
	return rules.find(
		(rule) =>
			rule.effect === 'allow' &&
			(rule.source === 'run' || rule.source === 'always') &&
			rule.exact &&
			rule.action === action &&
			rule.matches(target),
	);
}

function ruleVerdict(rule: CompiledRule, risk: Risk): PermissionVerdict {
	const { effect, pattern, source } = rule;
	const decision = effect;
	const reason =
		decision === 'deny'
			? `denied by rule ${describeRule(rule)}`
			: decision === 'ask'
				? `rule ${describeRule(rule)}`
				: `allowed by rule ${describeRule(rule)}`;
	return { decision, via: 'rule', rule: { effect, pattern, source }, risk, reason };
}

function riskVerdict(risk: Risk): PermissionVerdict {
	if (risk.level === 'low') {
		return { decision: 'allow', via: 'risk', risk, reason: 'low risk (reads inside the workspace copy)' };
	}
	return {
		decision: 'ask',
		via: 'risk',
		risk,
		reason: `${risk.level} risk: ${risk.reasons.join('; ') || 'not known to be safe'}`,
	};
}
