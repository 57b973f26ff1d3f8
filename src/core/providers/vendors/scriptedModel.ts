import type { Usage } from '../../../contract/runEvents.js';
import { realClock, type RunClock } from '../../util/clock.js';
import type { ChatModel, ChatRequest, ModelEvent } from '../spec/model.js';
import { ProviderError, type ProviderErrorKind } from '../spec/providerError.js';

/** What a scripted model does on one call. */
export interface ScriptedReply {
	readonly text?: string;
	readonly reasoning?: string;
	readonly toolCalls?: readonly {
		readonly name: string;
		readonly arguments?: Record<string, unknown>;
		/** Raw argument text to send instead of `arguments` (e.g. invalid JSON). */
		readonly raw?: string;
	}[];
	readonly fail?: {
		readonly kind: ProviderErrorKind;
		readonly status?: number;
		readonly retryAfterMs?: number;
		readonly message?: string;
	};
	readonly usage?: Usage;
	/** Overrides the model's latency for this call. */
	readonly latencyMs?: number;
	/**
	 * The tool calls start streaming this long after the call starts (a `tool-call-delta`, as real
	 * adapters report argument chunks); they still arrive whole at the end. Default: only at the end.
	 */
	readonly toolCallsStreamFromMs?: number;
}

export type ScriptedHandler = (request: ChatRequest, call: number) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedModelOptions {
	readonly modelId?: string;
	readonly latencyMs?: number;
	/** Text is streamed in this many chunks, spread over the latency. */
	readonly chunks?: number;
	readonly usage?: Usage;
}

/**
 * A model that plays a script: for orchestration tests, demos and benchmarks, never for
 * provider behaviour (those are tested against real SDKs and loopback servers).
 */
export class ScriptedModel implements ChatModel {
	readonly provider = 'scripted';
	readonly modelId: string;
	readonly capabilities = { tools: true, reasoning: true };
	/** Every request received, in order. */
	readonly requests: ChatRequest[] = [];
	private callCount = 0;

	constructor(
		private readonly handler: ScriptedHandler,
		private readonly options: ScriptedModelOptions = {},
	) {
		this.modelId = options.modelId ?? 'scripted';
	}

	async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
		const call = this.callCount++;
		this.requests.push(request);
		throwIfAborted(signal);
		const reply = await this.handler(request, call);
		const latency = reply.latencyMs ?? this.options.latencyMs ?? 0;
		const texts = splitText(reply.text ?? '', this.options.chunks ?? 4);
		const steps = Math.max(1, texts.length);
		if (reply.reasoning) yield { type: 'reasoning-delta', text: reply.reasoning };
		// The run's clock, so a test on a manual clock moves the latency on; deadlines are absolute so
		// timer drift does not add up over the chunks.
		const clock = request.clock ?? realClock;
		const start = clock.now();
		let toolCallStreaming = reply.toolCallsStreamFromMs === undefined || !reply.toolCalls?.length;
		for (let i = 0; i < steps; i++) {
			const deadline = start + (latency * (i + 1)) / steps;
			if (!toolCallStreaming && start + reply.toolCallsStreamFromMs! <= deadline) {
				await sleep(start + reply.toolCallsStreamFromMs! - clock.now(), signal, clock);
				toolCallStreaming = true;
				yield { type: 'tool-call-delta', index: 0 };
			}
			await sleep(deadline - clock.now(), signal, clock);
			const text = texts[i];
			if (text) yield { type: 'text-delta', text };
		}
		if (reply.fail) {
			throw new ProviderError({
				provider: this.provider,
				kind: reply.fail.kind,
				status: reply.fail.status,
				retryAfterMs: reply.fail.retryAfterMs,
				message: reply.fail.message ?? `scripted ${reply.fail.kind} failure`,
			});
		}
		let index = 0;
		for (const toolCall of reply.toolCalls ?? []) {
			const id = `call_${call}_${index++}`;
			const raw = toolCall.raw ?? JSON.stringify(toolCall.arguments ?? {});
			yield { type: 'tool-call', call: parseCall(id, toolCall.name, raw) };
		}
		yield {
			type: 'usage',
			usage: reply.usage ?? this.options.usage ?? { inputTokens: 100, outputTokens: 50 },
		};
		yield { type: 'finish', reason: reply.toolCalls?.length ? 'tool-calls' : 'stop' };
	}
}

function parseCall(id: string, name: string, raw: string) {
	try {
		const parsed: unknown = JSON.parse(raw);
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
			return { id, name, arguments: parsed as Record<string, unknown> };
		}
		return { id, name, arguments: {}, parseError: 'arguments are not a JSON object', rawArguments: raw };
	} catch (error) {
		return { id, name, arguments: {}, parseError: (error as Error).message, rawArguments: raw };
	}
}

function splitText(text: string, chunks: number): string[] {
	if (!text) return [];
	const size = Math.ceil(text.length / chunks);
	const parts: string[] = [];
	for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
	return parts;
}

function throwIfAborted(signal: AbortSignal): void {
	if (signal.aborted) {
		throw new ProviderError({ provider: 'scripted', kind: 'aborted', message: 'request aborted' });
	}
}

function sleep(ms: number, signal: AbortSignal, clock: RunClock): Promise<void> {
	throwIfAborted(signal);
	if (ms <= 0) return Promise.resolve();
	return new Promise((resolve, reject) => {
		const cancel = clock.setTimer(ms, () => {
			signal.removeEventListener('abort', onAbort);
			resolve();
		});
		const onAbort = () => {
			cancel();
			reject(new ProviderError({ provider: 'scripted', kind: 'aborted', message: 'request aborted' }));
		};
		signal.addEventListener('abort', onAbort, { once: true });
	});
}
