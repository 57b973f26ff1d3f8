import { stringify } from 'yaml';
import type { AutoAgentOptions } from './autoAgent.js';
import {
	startLoopbackProvider,
	type LoopbackOptions,
	type LoopbackProtocol,
	type LoopbackProvider,
} from './loopbackProvider.js';

/** One agent of the mixed team, as it appears under `agents:` in a MassGen config. */
export interface LoopbackAgent {
	readonly id: string;
	readonly backend: { type: string; model: string; base_url: string; api_key: string };
}

export interface LoopbackTeam {
	readonly servers: Readonly<Record<LoopbackProtocol, LoopbackProvider>>;
	readonly agents: readonly LoopbackAgent[];
	/** A complete config (agents + `extra` top-level keys) for `massgen run --config`. */
	configYaml(extra?: Record<string, unknown>): string;
	close(): Promise<void>;
}

const members: readonly { protocol: LoopbackProtocol; id: string; type: string; model: string }[] = [
	{ protocol: 'responses', id: 'openai_agent', type: 'openai', model: 'gpt-5-mini' },
	{ protocol: 'anthropic', id: 'claude_agent', type: 'claude', model: 'claude-haiku-4-5' },
	{ protocol: 'gemini', id: 'gemini_agent', type: 'gemini', model: 'gemini-2.5-flash' },
	{ protocol: 'chat', id: 'chat_agent', type: 'chatcompletion', model: 'loopback-chat' },
];

/**
 * Starts one auto-agent server per protocol and describes a four-agent team (openai, claude,
 * gemini, chatcompletion) pointed at them: what the CLI's mixed-team run and the extension's
 * end-to-end tests use instead of real keys. Keys are dummies; the servers accept any.
 */
export async function startLoopbackTeam(
	options: { auto?: AutoAgentOptions } & Pick<
		LoopbackOptions,
		'delayMs' | 'latency' | 'clock' | 'simulateCache' | 'hold' | 'script'
	> = {},
): Promise<LoopbackTeam> {
	const { auto, ...rest } = options;
	const started = await Promise.all(
		members.map((m) => startLoopbackProvider(m.protocol, { ...rest, auto: { name: m.type, ...auto } })),
	);
	const servers = Object.fromEntries(members.map((m, i) => [m.protocol, started[i]!])) as Record<
		LoopbackProtocol,
		LoopbackProvider
	>;
	const agents = members.map((m) => ({
		id: m.id,
		backend: {
			type: m.type,
			model: m.model,
			base_url: servers[m.protocol].baseUrl,
			api_key: `loopback-${m.type}-key`,
		},
	}));
	return {
		servers,
		agents,
		configYaml: (extra = {}) => stringify({ agents, ...extra }),
		close: async () => {
			await Promise.all(started.map((s) => s.close()));
		},
	};
}
