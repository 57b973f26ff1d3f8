import { formatPath } from './configIssue.js';
import { isRecord } from './isRecord.js';

type Path = (string | number)[];

export interface Ag2Issue {
	readonly severity: 'error' | 'warning';
	readonly code: 'ag2-mapped' | 'python-only';
	readonly path: Path;
	readonly message: string;
}

/** AG2's `llm_config.api_type` → our backend type (AG2's "openai" is also its default). */
const apiTypes: Readonly<Record<string, string>> = {
	openai: 'openai',
	anthropic: 'claude',
	google: 'gemini',
	azure: 'azure_openai',
	groq: 'groq',
	together: 'together',
	cerebras: 'cerebras',
	ollama: 'ollama',
};

/** `llm_config` keys that carry over to our backend; the rest (`cache_seed`…) are AG2's own. */
const carried = ['model', 'temperature', 'max_tokens', 'api_key', 'base_url'] as const;

/**
 * MassGen's `type: ag2` runs an AG2 (AutoGen) agent, a Python framework, inside its own process. A
 * single AG2 agent (`agent_config`) is an LLM with a system message and, optionally, a code
 * executor: it becomes a plain agent of the model its `llm_config` names, its system message, and
 * `run_command` for the executor; a warning says so. A group chat (`group_config`) is a conversation
 * of AG2 agents inside that process, which has no counterpart here: an error naming why.
 */
export function mapAg2Agents(raw: Record<string, unknown>): {
	raw: Record<string, unknown>;
	issues: Ag2Issue[];
} {
	const issues: Ag2Issue[] = [];
	const mapAgent = (agent: unknown, path: Path): unknown => {
		if (!isRecord(agent) || !isRecord(agent.backend) || agent.backend.type !== 'ag2') return agent;
		const { type: _type, agent_config: config, group_config: group, ...rest } = agent.backend;
		const where = [...path, 'backend'];
		const fail = (at: Path, message: string): unknown => {
			issues.push({ severity: 'error', code: 'python-only', path: at, message });
			return agent;
		};
		if (group !== undefined) {
			return fail(
				[...where, 'group_config'],
				"an AG2 group chat (type ag2 with group_config) runs inside MassGen's Python process and cannot run " +
					"here: give each of its agents its own entry in 'agents'",
			);
		}
		if (!isRecord(config)) {
			return fail(where, "type ag2 needs 'agent_config' (an AG2 agent with its llm_config)");
		}
		const llmList = Array.isArray(config.llm_config) ? config.llm_config : [config.llm_config];
		const llm = llmList[0];
		const llmPath = [...where, 'agent_config', 'llm_config'];
		if (!isRecord(llm) || typeof llm.model !== 'string') {
			return fail(llmPath, "an AG2 agent needs 'llm_config' with a 'model'");
		}
		const apiType = typeof llm.api_type === 'string' ? llm.api_type : 'openai';
		const type = Object.hasOwn(apiTypes, apiType) ? apiTypes[apiType] : undefined;
		if (type === undefined) {
			return fail(
				[...llmPath, ...(Array.isArray(config.llm_config) ? [0] : []), 'api_type'],
				`AG2 api_type '${apiType}' has no backend here (known: ${Object.keys(apiTypes).join(', ')})`,
			);
		}
		const backend: Record<string, unknown> = { ...rest, type };
		for (const key of carried) if (llm[key] !== undefined) backend[key] = llm[key];
		const executes = config.code_execution_config !== undefined && config.code_execution_config !== false;
		if (executes) backend.enable_command_execution = true;
		const systemMessage = agent.system_message ?? config.system_message;
		const also = [
			typeof config.system_message === 'string' ? "agent_config's system_message" : undefined,
			executes ? 'run_command (in the sandbox) for its code_execution_config' : undefined,
			llmList.length > 1 ? `the first of its ${llmList.length} llm_config entries` : undefined,
		].filter((part) => part !== undefined);
		issues.push({
			severity: 'warning',
			code: 'ag2-mapped',
			path: [...where, 'type'],
			message:
				`${formatPath(where)}: AG2 is a Python framework MassGen runs in its own process; this agent ` +
				`runs as a ${type} agent of model '${llm.model}'${also.length ? ` with ${also.join(', ')}` : ''}`,
		});
		return { ...agent, backend, ...(systemMessage === undefined ? {} : { system_message: systemMessage }) };
	};
	const mapped = { ...raw };
	if (raw.agent !== undefined) mapped.agent = mapAgent(raw.agent, ['agent']);
	if (Array.isArray(raw.agents)) mapped.agents = raw.agents.map((agent, i) => mapAgent(agent, ['agents', i]));
	return { raw: mapped, issues };
}

/**
 * MassGen's `configs/rate_limits/rate_limits.yaml` sits among its team configs but is a table of
 * provider → model → `rpm`/`tpm`/`rpd` its Python backends read: say so instead of "no agents".
 */
export function isRateLimitTable(raw: Record<string, unknown>): boolean {
	const providers = Object.values(raw);
	return (
		raw.agent === undefined &&
		raw.agents === undefined &&
		providers.length > 0 &&
		providers.every(
			(models) =>
				isRecord(models) &&
				Object.values(models).every(
					(limits) => isRecord(limits) && Object.keys(limits).some((key) => /^(rpm|tpm|rpd)$/.test(key)),
				),
		)
	);
}
