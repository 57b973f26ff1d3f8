/** The wire protocols the loopback servers speak. */
export type LoopbackProtocol = 'responses' | 'chat' | 'anthropic' | 'gemini';

/** One server-sent event; `data` objects are JSON-encoded, strings are sent verbatim (for broken JSON). */
export interface SseEvent {
	readonly event?: string;
	readonly data: unknown;
}

export interface TurnToolCall {
	readonly id?: string;
	readonly name: string;
	readonly arguments?: Record<string, unknown>;
	/** Argument text sent instead of `arguments` (e.g. invalid JSON). */
	readonly raw?: string;
	/** Number of deltas the argument text is split into (default 4; Gemini sends calls whole). */
	readonly chunks?: number;
	/** Gemini only: a `thoughtSignature` sent on the call's part. */
	readonly signature?: string;
	/** Responses only: the tool's namespace (Codex serves each MCP server's tools as `mcp__<server>`). */
	readonly namespace?: string;
}

/** What the model "says" in one call; each protocol module turns it into its own wire events. */
export interface Turn {
	/** A string is split into `textChunks` deltas; an array is sent as given. */
	readonly text?: string | readonly string[];
	readonly reasoning?: string | readonly string[];
	readonly toolCalls?: readonly TurnToolCall[];
	readonly usage?: {
		readonly input: number;
		readonly output: number;
		readonly reasoning?: number;
		readonly cachedInput?: number;
		readonly cacheWrite?: number;
	};
	readonly finish?: 'stop' | 'length';
	readonly textChunks?: number;
}

/** Event positions; a negative one counts from the end (`-1`: all but the last event). */
interface StreamShape {
	/** Destroy the socket after this many events (a cut connection). */
	readonly cutAfter?: number;
	/** End the response cleanly after this many events (a truncated stream). */
	readonly endAfter?: number;
	/** Stop sending after this many events and hold the connection until the client closes it. */
	readonly stallAfter?: number;
	/** Pause between events. */
	readonly delayMs?: number;
	readonly headers?: Readonly<Record<string, string>>;
}

export type Reply =
	| (StreamShape & { readonly turn: Turn })
	| (StreamShape & { readonly events: readonly SseEvent[] })
	| {
			/** Exact response body bytes (e.g. a fixture file), written in pieces of `chunkBytes`. */
			readonly raw: string;
			readonly chunkBytes?: number;
			readonly contentType?: string;
			readonly delayMs?: number;
	  }
	| {
			readonly status: number;
			readonly headers?: Readonly<Record<string, string>>;
			/** JSON body; defaults to the protocol's error shape with `message`. */
			readonly body?: unknown;
			readonly message?: string;
	  };

/** The parts of a request an auto-agent decides from, read the same way for every protocol. */
export interface PromptView {
	readonly model: string;
	readonly system: string;
	/** Every text the model would read: user and assistant messages and tool results, in order. */
	readonly texts: readonly string[];
	readonly tools: readonly { readonly name: string; readonly parameters: Record<string, unknown> }[];
	/** Text of the last message when it is a tool result. */
	readonly lastToolResult?: string;
	/**
	 * The same texts with who wrote them, in order: the user's messages, the model's own earlier
	 * output, tool results (each wire's own shape: a tool role, a `tool_result` block, a
	 * `functionResponse` part, a `function_call_output` item).
	 */
	readonly messages: readonly PromptMessage[];
}

export interface PromptMessage {
	readonly role: 'user' | 'assistant' | 'tool';
	readonly text: string;
	/** A tool result's tool: the name of the call it answers (empty when the request does not say). */
	readonly toolName?: string;
}

/** One piece of a request in the order the provider reads it (tools, system, messages), for prefix caching. */
export interface PromptSegment {
	/** JSON of the piece, without its `cache_control` marker (moving a breakpoint does not change the prefix). */
	readonly text: string;
	/** Anthropic: the piece carries a `cache_control` breakpoint. */
	readonly breakpoint: boolean;
}

/** What each protocol module provides to the generic server. */
export interface WireProtocol {
	readonly name: LoopbackProtocol;
	/** Path prefix the SDK's base URL must include (`/v1` for OpenAI-style APIs, none otherwise). */
	readonly basePath: string;
	/** Leading events of an encoded turn that carry no model output (e.g. `message_start`, `ping`). */
	readonly preambleEvents: number;
	matches(method: string, path: string): boolean;
	modelOf(path: string, body: unknown): string;
	encodeTurn(turn: Turn, model: string): SseEvent[];
	readPrompt(body: unknown, model: string): PromptView;
	promptSegments(body: unknown): PromptSegment[];
	errorBody(status: number, message: string): unknown;
}
