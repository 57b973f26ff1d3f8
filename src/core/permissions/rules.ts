/**
 * Declarative permission rules: `action(target)` patterns with an effect (allow | ask | deny).
 * The target is a glob (`linearGlob`, bash flavour: `*` also crosses `/` and spaces, `{a,b}`
 * alternatives, `\` escapes). `command(git push*)`, `mcp(github/*)`, `tool(mcp__fs__*)`,
 * `read_url(*)`. A bare `action` means `action(*)`.
 */
import { compileGlob } from '../util/linearGlob.js';

export type RuleEffect = 'allow' | 'ask' | 'deny';
/** Where a rule came from: the team config, the caller (e.g. VS Code settings), "always allow" decisions, or "allow for this run". */
export type RuleSource = 'config' | 'settings' | 'always' | 'run';

export interface RuleInput {
	readonly effect: RuleEffect;
	readonly pattern: string;
	readonly source: RuleSource;
}

export interface CompiledRule extends RuleInput {
	readonly action: string;
	/** The target glob as written. */
	readonly target: string;
	/** True when the target has no wildcard: it matches one exact target only. */
	readonly exact: boolean;
	matches(target: string): boolean;
}

/** Lists of patterns per effect, as in the config's `permissions` section or a settings object. */
export interface RuleLists {
	readonly allow?: readonly string[];
	readonly ask?: readonly string[];
	readonly deny?: readonly string[];
}

const rulePattern = /^\s*([a-z_][a-z0-9_-]*)\s*(?:\((.*)\))?\s*$/is;
/** Why a pattern is not a rule, or null when it is one. */
export function ruleSyntaxError(pattern: string): string | null {
	const match = rulePattern.exec(pattern);
	if (!match) {
		return `'${pattern}' is not a rule: write action(target), e.g. command(npm test) or mcp(github/*)`;
	}
	if (match[2] !== undefined && match[2].trim() === '') {
		return `'${pattern}' has an empty target: use ${match[1]}(*) for every target`;
	}
	return null;
}

export function compileRule(input: RuleInput): CompiledRule {
	const error = ruleSyntaxError(input.pattern);
	if (error !== null) throw new Error(error);
	const match = rulePattern.exec(input.pattern)!;
	const action = match[1]!.toLowerCase();
	const target = (match[2] ?? '*').trim();
	const exact = !/(^|[^\\])[*?[{]|^[*?[{]/.test(target) && !/[@!+]\(/.test(target);
	const literal = unescapeGlob(target);
	const glob = compileGlob(target, { crossSlash: true });
	return {
		...input,
		action,
		target,
		exact,
		matches: exact
			? (candidate) => normaliseSpaces(candidate) === normaliseSpaces(literal)
			: (candidate) => glob(normaliseSpaces(candidate)),
	};
}

/** Compiles rule lists; invalid patterns are returned as errors instead of thrown. */
export function compileRuleLists(
	lists: RuleLists,
	source: RuleSource,
): { rules: CompiledRule[]; errors: string[] } {
	const rules: CompiledRule[] = [];
	const errors: string[] = [];
	for (const effect of ['deny', 'ask', 'allow'] as const) {
		for (const pattern of lists[effect] ?? []) {
			const error = ruleSyntaxError(pattern);
			if (error !== null) errors.push(error);
			else rules.push(compileRule({ effect, pattern, source }));
		}
	}
	return { rules, errors };
}

/** The exact rule for one action and target (what "allow for this run" and "always allow" add). */
export function exactRule(action: string, target: string): string {
	return `${action}(${escapeGlob(normaliseSpaces(target))})`;
}

/** Escapes glob syntax so the text matches only itself. */
export function escapeGlob(text: string): string {
	return text.replace(/[\\*?[\]{}()!+@|]/g, '\\$&');
}

function unescapeGlob(text: string): string {
	return text.replace(/\\(.)/g, '$1');
}

function normaliseSpaces(text: string): string {
	return text.trim().replace(/\s+/g, ' ');
}

/** The first rule (deny before ask before allow) matching the action and any of the targets. */
export function findRule(
	rules: readonly CompiledRule[],
	effect: RuleEffect,
	action: string,
	targets: readonly string[],
): CompiledRule | undefined {
	return rules.find(
		(rule) =>
			rule.effect === effect && rule.action === action && targets.some((target) => rule.matches(target)),
	);
}

/** How a rule is named in reasons and the audit ledger: `deny command(git push*) (config)`. */
export function describeRule(rule: RuleInput): string {
	return `${rule.effect} ${rule.pattern} (${rule.source === 'always' ? 'always-allow decision' : rule.source === 'run' ? 'allowed for this run' : rule.source})`;
}
