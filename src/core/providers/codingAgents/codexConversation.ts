/**
 * One Codex conversation (a thread of `codex exec` turns, each a process of its own that the SDK
 * starts). Each `turn()` reads the CLI's events until it calls one of our bridged tools (which
 * then waits for the runtime's result, the CLI process waiting with it) or ends its turn; the
 * lane sees its text, reasoning and native tool use as they come; each step reports the usage
 * of the model responses it saw (`codexUsage.ts`). Cancel aborts the SDK's turn: the CLI is
 * ended, and with its bubblewrap everything it started.
 */
import type { Thread, ThreadEvent, ThreadItem } from '@openai/codex-sdk';
import type { Usage } from '../../../contract/runEvents.js';
import type { ModelEvent } from '../spec/model.js';
import { ProviderError } from '../spec/providerError.js';
import { cliPathVariables } from '../../util/cliPathVariables.js';
import type { BridgedCall } from './agentTurns.js';
import { codexBridgeName, type CodexBridge } from './codexBridge.js';
import type { CodexUsage } from './codexUsage.js';

export interface CodexTurnOutcome {
	/** Our tools it called; empty when it ended its turn. */
	readonly calls: readonly BridgedCall[];
	/** True when the CLI's turn is over (the next input starts a new one). */
	readonly ended: boolean;
}

type Emit = (event: ModelEvent) => void;

export class CodexConversation {
	private iterator: AsyncIterator<ThreadEvent> | undefined;
	private pending: Promise<IteratorResult<ThreadEvent>> | undefined;
	private abort: AbortController | undefined;
	/** The usage the CLI reported for its turn, counted when the turn's events end. */
	private reported: Usage | undefined;
	/** Our tools' calls the thread has made (each one an item of its session file). */
	private bridgedCalls = 0;

	constructor(
		private readonly thread: Thread,
		readonly bridge: CodexBridge,
		private readonly usage: CodexUsage,
	) {}

	/** Starts a CLI turn with this input (the thread resumes from the last one). */
	async send(text: string): Promise<void> {
		this.close();
		this.abort = new AbortController();
		const { events } = await this.thread.runStreamed(text, { signal: this.abort.signal });
		this.iterator = events[Symbol.asyncIterator]();
	}

	get running(): boolean {
		return this.iterator !== undefined;
	}

	async turn(emit: Emit, signal: AbortSignal): Promise<CodexTurnOutcome> {
		const aborted = new Promise<'aborted'>((resolve) => {
			if (signal.aborted) resolve('aborted');
			signal.addEventListener('abort', () => resolve('aborted'), { once: true });
		});
		try {
			for (;;) {
				const calls = this.bridge.take();
				if (calls.length > 0) {
					this.bridgedCalls += calls.length;
					const usage = await this.usage.step(this.thread.id, this.bridgedCalls);
					if (usage) emit({ type: 'usage', usage });
					return { calls, ended: false };
				}
				if (this.iterator === undefined) return { calls: [], ended: true };
				this.pending ??= this.iterator.next();
				const next = await Promise.race([
					this.pending,
					this.bridge.arrived().then(() => 'call' as const),
					aborted,
				]);
				if (next === 'aborted') {
					this.close();
					throw new ProviderError({ provider: 'codex', kind: 'aborted', message: 'aborted' });
				}
				if (next === 'call') continue;
				this.pending = undefined;
				if (next.done) {
					this.iterator = undefined;
					const reported = this.reported;
					this.reported = undefined;
					if (reported) emit({ type: 'usage', usage: await this.usage.completed(this.thread.id, reported) });
					return { calls: this.bridge.take(), ended: true };
				}
				this.read(next.value, emit);
			}
		} catch (error) {
			this.close();
			throw ProviderError.is(error) ? error : classifyCodexError(error);
		}
	}

	/** Ends the current CLI turn (and so its process and commands). Never throws. */
	close(): void {
		this.abort?.abort();
		this.abort = undefined;
		this.iterator = undefined;
		this.pending?.catch(() => undefined);
		this.pending = undefined;
	}

	private read(event: ThreadEvent, emit: Emit): void {
		if (event.type === 'item.completed') {
			const line = itemLine(event.item);
			if (event.item.type === 'agent_message') emit({ type: 'text-delta', text: event.item.text });
			else if (line) emit({ type: 'reasoning-delta', text: line });
		} else if (event.type === 'turn.completed') {
			this.reported = usageOf(event.usage);
		} else if (event.type === 'turn.failed') {
			throw classifyCodexError(new Error(event.error.message));
		}
	}
}

/** The lane's line for what the CLI did itself (our bridged calls show as our tool calls). */
function itemLine(item: ThreadItem): string {
	switch (item.type) {
		case 'reasoning':
			return item.text;
		case 'command_execution':
			return `\n[command ${item.command}] exit ${item.exit_code ?? '?'}\n`;
		case 'file_change':
			return `\n[patch ${item.changes.map((c) => `${c.kind} ${c.path}`).join(', ')}] ${item.status}\n`;
		case 'mcp_tool_call':
			return item.server === codexBridgeName ? '' : `\n[${item.server}.${item.tool}] ${item.status}\n`;
		case 'error':
			return `\n[codex] ${item.message}\n`;
		default:
			return '';
	}
}

function usageOf(usage: {
	input_tokens: number;
	cached_input_tokens: number;
	output_tokens: number;
	reasoning_output_tokens: number;
}): Usage {
	return {
		inputTokens: usage.input_tokens,
		outputTokens: usage.output_tokens,
		cachedInputTokens: usage.cached_input_tokens,
		reasoningTokens: usage.reasoning_output_tokens,
	};
}

/** What the SDK or CLI reports, as our error kinds (the messages the spike found). */
export function classifyCodexError(error: unknown): ProviderError {
	const message = error instanceof Error ? error.message : String(error);
	const fail = (kind: 'auth' | 'unavailable' | 'invalid-response', text: string) =>
		new ProviderError({ provider: 'codex', kind, retryable: false, message: text });
	if (/ENOENT|Unable to locate Codex CLI/i.test(message)) {
		return fail(
			'unavailable',
			`Codex CLI not found (${message}): install Codex (\`codex\` on PATH), or set its path in the backend's cli_path, ${cliPathVariables.codex} or the setting massgen.codingAgents.codexPath`,
		);
	}
	if (/Missing environment variable|401|403|unauthorized|invalid api key/i.test(message)) {
		return fail(
			'auth',
			`Codex: ${message} (a codex agent needs OPENAI_API_KEY; its ChatGPT login is not used)`,
		);
	}
	return fail('invalid-response', `Codex: ${message}`);
}
