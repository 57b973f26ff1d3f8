/**
 * The run's one decision on provider-native tools (docs/protocol.md). They run on the provider's side, so the
 * permission engine cannot ask per call: `massgen.providerTools` / `--provider-tools` allows them,
 * denies them, or (the default) asks once, before the run's first request would enable them. The
 * decision is recorded in the run's audit ledger; a denial leaves the tools out, said once per agent.
 */
import type { AuditLedger } from '../permissions/auditLedger.js';
import type { MassGenConfig } from '../config/schema.js';
import { toBackendSettings } from '../config/toSettings.js';
import type { ChatModel, ModelEvent } from '../providers/spec/model.js';
import type { ProviderToolSwitches } from '../providers/spec/providerToolSupport.js';

export type ProviderToolsMode = 'allow' | 'ask' | 'deny';
export const providerToolsModes: readonly ProviderToolsMode[] = ['allow', 'ask', 'deny'];

/** An agent whose backend would enable provider tools, and which ones (`web search`, `code execution`). */
export interface ProviderToolsAgent {
	readonly agentId: string;
	readonly tools: readonly string[];
}

export interface ProviderToolsPolicy {
	readonly mode: ProviderToolsMode;
	/** Where the mode came from, for the ledger (`--provider-tools`, `massgen.providerTools`). */
	readonly source: string;
	/** Asks the user once; undefined = nobody to ask (no terminal): `ask` then denies, saying why. */
	readonly ask?: (agents: readonly ProviderToolsAgent[]) => Promise<boolean>;
	/** Why nobody can be asked, and how to choose (the CLI: no terminal, use --provider-tools). */
	readonly unattended?: string;
}

export interface ProviderToolsVerdict {
	readonly allowed: boolean;
	readonly by: 'user' | 'policy';
	readonly reason: string;
	readonly agents: readonly ProviderToolsAgent[];
}

export function describeSwitches(switches: ProviderToolSwitches): string[] {
	return [
		...(switches.webSearch ? ['web search'] : []),
		...(switches.codeExecution ? ['code execution'] : []),
	];
}

/** The config's agents that would enable provider tools on a backend that has them. */
export function providerToolsAgents(config: MassGenConfig): ProviderToolsAgent[] {
	return config.agents.flatMap((agent) => {
		const tools = describeSwitches(toBackendSettings(agent).providerTools ?? {});
		return tools.length ? [{ agentId: agent.id, tools }] : [];
	});
}

/** The decision for this run's agents (called only when some agent would enable the tools). */
export async function decideProviderTools(
	policy: ProviderToolsPolicy,
	agents: readonly ProviderToolsAgent[],
): Promise<ProviderToolsVerdict> {
	if (policy.mode !== 'ask') {
		return {
			allowed: policy.mode === 'allow',
			by: 'policy',
			reason: `${policy.source}: ${policy.mode}`,
			agents,
		};
	}
	if (!policy.ask) {
		const why = policy.unattended ?? 'nobody can be asked here';
		return { allowed: false, by: 'policy', reason: `${policy.source} is ask, but ${why}`, agents };
	}
	const allowed = await policy.ask(agents);
	return { allowed, by: 'user', reason: allowed ? 'allowed for this run' : 'denied for this run', agents };
}

/** One ledger line per agent, so `permissions.jsonl` shows who would have used what and the answer. */
export function recordProviderToolsVerdict(
	ledger: AuditLedger,
	runId: string,
	verdict: ProviderToolsVerdict,
): void {
	for (const agent of verdict.agents) {
		ledger.append({
			runId,
			agentId: agent.agentId,
			phase: 'coordination',
			tool: 'provider_tools',
			action: 'enable provider-side tools',
			target: agent.tools.join(', '),
			args: { tools: [...agent.tools] },
			decision: verdict.allowed ? 'allow' : 'deny',
			via: verdict.by === 'user' ? 'approval' : 'rule',
			by: verdict.by,
			reason: verdict.reason,
		});
	}
}

/** A denied agent's model: its calls leave the provider tools out, and its first call says so once. */
export function withoutProviderTools(model: ChatModel, notice: string): ChatModel {
	let said = false;
	const stream = async function* (
		...[request, signal]: Parameters<ChatModel['stream']>
	): AsyncGenerator<ModelEvent> {
		if (!said) {
			said = true;
			yield { type: 'notice', message: notice };
		}
		yield* model.stream({ ...request, withoutProviderTools: true }, signal);
	};
	return {
		provider: model.provider,
		modelId: model.modelId,
		capabilities: model.capabilities,
		stream,
		...(model.prepare ? { prepare: () => model.prepare!() } : {}),
		...(model.close ? { close: () => model.close!() } : {}),
	};
}
