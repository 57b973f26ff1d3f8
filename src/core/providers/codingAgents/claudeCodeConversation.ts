/**
 * One live Claude Code conversation: the CLI process, started once with streaming input and kept
 * for the calls that continue it. Each `turn()` reads the CLI's messages until it calls one of our
 * bridged tools (which then waits for the runtime's result) or ends its turn; the lane sees its
 * text, thinking and native tool calls as they come.
 */
import type { ChildProcess } from 'node:child_process';
import type { Query, SDKMessage, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import type { Usage } from '../../../contract/runEvents.js';
import { killProcessTree } from '../../exec/commandProcess.js';
import { EventQueue } from '../../util/eventQueue.js';
import type { ModelEvent } from '../spec/model.js';
import { ProviderError } from '../spec/providerError.js';
import { cliPathVariables } from '../../util/cliPathVariables.js';
import type { BridgedCall } from './agentTurns.js';
import type { Bridge } from './claudeCodeBridge.js';
import { bridgeServerName } from './claudeCodeBridge.js';

export interface TurnOutcome {
	/** Our tools it called; empty when it ended its turn. */
	readonly calls: readonly BridgedCall[];
	/** The final text of a turn it ended (the `result`); undefined when it stopped at a call. */
	readonly resultText: string | undefined;
}

type Emit = (event: ModelEvent) => void;

export class ClaudeCodeConversation {
	readonly input = new EventQueue<SDKUserMessage>();
	private query: Query | undefined;
	private iterator: AsyncIterator<SDKMessage> | undefined;
	private pending: Promise<IteratorResult<SDKMessage>> | undefined;
	private child: ChildProcess | undefined;
	private closed = false;
	/** The id of the model message streaming now (its usage grows with each delta). */
	private streaming: string | undefined;
	/** The lane's sink for the current turn (native tool calls are reported from `canUseTool`). */
	emit: Emit | undefined;

	constructor(readonly bridge: Bridge) {}

	start(query: Query): void {
		this.query = query;
		this.iterator = query[Symbol.asyncIterator]();
	}

	/** The CLI process (the spawn hook hands it over). */
	adopt(child: ChildProcess): void {
		this.child = child;
		if (this.closed) killProcessTree(child.pid);
	}

	send(text: string): void {
		this.input.push({
			type: 'user',
			message: { role: 'user', content: text },
			parent_tool_use_id: null,
		} as SDKUserMessage);
	}

	async turn(emit: Emit, signal: AbortSignal): Promise<TurnOutcome> {
		this.emit = emit;
		const usage = new Map<string, Usage>();
		const aborted = new Promise<'aborted'>((resolve) => {
			if (signal.aborted) resolve('aborted');
			signal.addEventListener('abort', () => resolve('aborted'), { once: true });
		});
		try {
			for (;;) {
				const calls = this.bridge.take();
				if (calls.length > 0) return { calls, resultText: undefined };
				this.pending ??= this.iterator!.next();
				const next = await Promise.race([
					this.pending,
					this.bridge.arrived().then(() => 'call' as const),
					aborted,
				]);
				if (next === 'aborted') throw abortedError();
				if (next === 'call') continue;
				this.pending = undefined;
				if (next.done) throw failure('invalid-response', 'the Claude Code CLI ended the conversation');
				const text = this.read(next.value, emit, usage);
				if (text !== undefined) return { calls: this.bridge.take(), resultText: text };
			}
		} catch (error) {
			throw ProviderError.is(error) ? error : classify(error);
		} finally {
			this.emit = undefined;
			const total = sumUsage(usage);
			if (total) emit({ type: 'usage', usage: total });
		}
	}

	/** Ends the CLI and everything it started. Never throws. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		// A read still waiting when the CLI goes may reject: nobody waits for it any more.
		this.pending?.catch(() => undefined);
		this.input.close();
		try {
			this.query?.close();
		} catch {
			// Already gone.
		}
		killProcessTree(this.child?.pid);
	}

	/** Forwards one CLI message; returns the turn's final text when it is the turn's result. */
	private read(message: SDKMessage, emit: Emit, usage: Map<string, Usage>): string | undefined {
		// The main thread's stream (a subagent's has a parent): live text, and usage as it grows.
		if (message.type === 'stream_event' && message.parent_tool_use_id === null) {
			const event = message.event;
			if (event.type === 'message_start') {
				this.streaming = event.message.id;
				usage.set(event.message.id, usageOf(event.message.usage));
			} else if (event.type === 'message_delta' && this.streaming !== undefined) {
				const sofar = usage.get(this.streaming) ?? { inputTokens: 0, outputTokens: 0 };
				usage.set(this.streaming, { ...sofar, outputTokens: event.usage.output_tokens });
			} else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
				emit({ type: 'text-delta', text: event.delta.text });
			} else if (event.type === 'content_block_delta' && event.delta.type === 'thinking_delta') {
				emit({ type: 'reasoning-delta', text: event.delta.thinking });
			}
			return undefined;
		}
		if (message.type === 'system' && message.subtype === 'api_retry') {
			// The CLI retries a refused key ten times: the first refusal ends the agent's call.
			if (message.error === 'authentication_failed' || [401, 403].includes(message.error_status ?? 0)) {
				throw failure('auth', `Claude Code: the API refused the key or login (HTTP ${message.error_status})`);
			}
			return undefined;
		}
		if (message.type === 'result') {
			// A turn the CLI could not run (no login, a refused request) is a `success` flagged `is_error`.
			if (message.subtype === 'success' && message.is_error) throw classify(new Error(message.result));
			if (message.subtype === 'success') return message.result;
			throw failure('invalid-response', `Claude Code: ${message.subtype} (${message.errors.join('; ')})`);
		}
		return undefined;
	}
}

/** The lane's line for one native tool call: its name and what it touches. */
export function nativeCallLine(name: string, input: Record<string, unknown>, verdict: string): string {
	if (name.startsWith(`mcp__${bridgeServerName}__`)) return '';
	const target = ['file_path', 'path', 'pattern', 'command', 'url'].map((key) => input[key]).find(Boolean);
	return `\n[${name}${target === undefined ? '' : ` ${String(target)}`}] ${verdict}\n`;
}

function usageOf(reported: {
	readonly input_tokens: number;
	readonly output_tokens: number;
	readonly cache_read_input_tokens?: number | null;
	readonly cache_creation_input_tokens?: number | null;
}): Usage {
	const cached = reported.cache_read_input_tokens ?? 0;
	const written = reported.cache_creation_input_tokens ?? 0;
	return {
		inputTokens: reported.input_tokens + cached + written,
		outputTokens: reported.output_tokens,
		cachedInputTokens: cached,
		cacheWriteTokens: written,
	};
}

function sumUsage(usage: ReadonlyMap<string, Usage>): Usage | undefined {
	if (usage.size === 0) return undefined;
	let total: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0 };
	for (const each of usage.values()) {
		total = {
			inputTokens: total.inputTokens + each.inputTokens,
			outputTokens: total.outputTokens + each.outputTokens,
			cachedInputTokens: (total.cachedInputTokens ?? 0) + (each.cachedInputTokens ?? 0),
			cacheWriteTokens: (total.cacheWriteTokens ?? 0) + (each.cacheWriteTokens ?? 0),
		};
	}
	return total;
}

function failure(kind: 'auth' | 'invalid-response' | 'unavailable', message: string): ProviderError {
	return new ProviderError({ provider: 'claude_code', kind, retryable: false, message });
}

function abortedError(): ProviderError {
	return new ProviderError({ provider: 'claude_code', kind: 'aborted', message: 'aborted' });
}

/** What the SDK throws, as our error kinds (the messages the spike found). */
export function classify(error: unknown): ProviderError {
	const message = error instanceof Error ? error.message : String(error);
	// Ours, a spawn's, or the SDK's own lookup with no path set (an installed extension or CLI ships no binary).
	if (/native binary not found|native cli binary .*not found|ENOENT|not found at/i.test(message)) {
		return failure(
			'unavailable',
			`Claude Code CLI not found (${message}): install Claude Code (\`claude\` on PATH), or set its executable in the backend's cli_path, ${cliPathVariables.claude_code} or the setting massgen.codingAgents.claudeCodePath`,
		);
	}
	if (/not logged in|\/login|invalid api key|authentication/i.test(message)) {
		return failure('auth', `Claude Code: ${message}`);
	}
	if (/abort/i.test(message)) return abortedError();
	return failure('invalid-response', `Claude Code: ${message}`);
}
