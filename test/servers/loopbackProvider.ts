import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { autoAgentTurn, type AutoAgentOptions } from './autoAgent.js';
import { simulateCache } from './cacheSimulation.js';
import { realClock, type RunClock } from '../../src/core/util/clock.js';
import { latencyFor, pacing, pause, type Latency, type LatencyPlan } from './latency.js';
import type {
	LoopbackProtocol,
	PromptSegment,
	PromptView,
	Reply,
	SseEvent,
	Turn,
	WireProtocol,
} from './types.js';
import { anthropicWire } from './wire/anthropic.js';
import { chatWire } from './wire/chat.js';
import { contextLengthError, type ChatServerFlavor } from './wire/contextErrors.js';
import { geminiWire } from './wire/gemini.js';
import { responsesWire } from './wire/responses.js';

export type { LoopbackProtocol, PromptMessage, PromptView, Reply, SseEvent, Turn } from './types.js';
export type { Latency, LatencyPlan } from './latency.js';

const protocols: Record<LoopbackProtocol, WireProtocol> = {
	responses: responsesWire,
	chat: chatWire,
	anthropic: anthropicWire,
	gemini: geminiWire,
};

export interface RecordedRequest {
	readonly method: string;
	readonly path: string;
	readonly query: Readonly<Record<string, string>>;
	/** Lower-cased header names. */
	readonly headers: Readonly<Record<string, string>>;
	readonly body: unknown;
	readonly rawBody: string;
	/** The model named by the request (body or URL). */
	readonly model: string;
	/** The request as an auto-agent reads it. */
	readonly prompt: PromptView;
	/** Epoch milliseconds (sub-millisecond precision) when the request's body had arrived. */
	readonly receivedAt: number;
	/** The latency the server applied to this request's stream, if any. */
	readonly latency?: Latency;
	/**
	 * True when the client closed the connection before the server had sent its whole reply. A close
	 * after the terminal event (the SDKs may drop the connection once they have read it) is not counted.
	 */
	closedByClient: boolean;
	/** Epoch milliseconds when the reply finished or the connection closed. */
	settledAt?: number;
	/** Answered with the protocol's context-length error (`LoopbackOptions.contextLimit`). */
	tooLong: boolean;
	/** True once the server has sent an event that carries model output (past the protocol's preamble). */
	streamedOutput: boolean;
	/** Resolves once the reply is finished or the connection closed. */
	readonly settled: Promise<void>;
}

export interface LoopbackOptions {
	/**
	 * Answer with the auto-agent policy whenever the reply queue is empty (see `autoAgent.ts`);
	 * otherwise an unexpected request gets a 500 and is counted in `unexpected`.
	 */
	readonly auto?: boolean | LoopbackAutoOptions;
	/** Pause between SSE events for every streamed reply (default 0). */
	readonly delayMs?: number;
	/** Time to first byte and stream duration per request (replaces `delayMs` for the requests it covers). */
	readonly latency?: LatencyPlan;
	/**
	 * The clock `latency` runs on (real time by default). A test that hands the run the same manual
	 * clock drives server and coordination on one time line, with exact times and no margins.
	 */
	readonly clock?: RunClock;
	/**
	 * Auto-agent turns report input tokens estimated from the request and the part of them a
	 * provider's prompt cache would have served, from earlier requests of the same model (see
	 * `cacheSimulation.ts`; rough). Off: the auto-agent's fixed usage.
	 */
	readonly simulateCache?: boolean;
	/**
	 * A gate: the reply to a request waits until the promise this returns settles (undefined: at
	 * once). The request is in `requests` meanwhile, so a test can hold one run open until it
	 * releases it, or hold two runs' requests until both have arrived (concurrency seen by the server).
	 */
	readonly hold?: (request: RecordedRequest) => Promise<void> | undefined;
	/**
	 * A context window: a request whose body is longer than `maxPromptBytes` is answered with the
	 * protocol's own context-length error (`contextErrors.ts`; on Chat Completions the `flavor`'s),
	 * before any scripted reply is taken. Tokens in the message are bytes / 4.
	 */
	readonly contextLimit?: { readonly maxPromptBytes: number; readonly flavor?: ChatServerFlavor };
	/** The model as a function of the request, asked before the queue; undefined: the queue (or auto) answers. */
	readonly script?: (request: RecordedRequest) => Reply | undefined;
}

export interface LoopbackAutoOptions extends AutoAgentOptions {
	/** Raw events for the auto-agent's plain-text turns (e.g. a presentation that searched the web). */
	readonly plainReply?: (model: string) => readonly SseEvent[];
}

export interface LoopbackProvider {
	readonly protocol: LoopbackProtocol;
	/** Base URL for the SDK: includes `/v1` for OpenAI-style protocols, the host root otherwise. */
	readonly baseUrl: string;
	readonly requests: readonly RecordedRequest[];
	/**
	 * The first model call (a POST) from request `since` on: the editor's Team view and model
	 * picker probe a local server with `GET …/models` whenever they refresh, which can land first.
	 */
	firstModelRequest(since: number): RecordedRequest | undefined;
	/** Requests that found no scripted reply (auto mode off). */
	readonly unexpected: number;
	enqueue(...replies: Reply[]): void;
	/** Shorthand for `enqueue({ turn })`. */
	say(turn: Turn): void;
	/** Replies still queued (a test that scripted exactly what it needed ends with 0). */
	pending(): number;
	close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 (random port) that speaks one provider's wire protocol. */
export async function startLoopbackProvider(
	protocol: LoopbackProtocol,
	options: LoopbackOptions = {},
): Promise<LoopbackProvider> {
	const wire = protocols[protocol];
	const queue: Reply[] = [];
	const requests: RecordedRequest[] = [];
	const auto = options.auto === true ? {} : options.auto || undefined;
	const earlierPrompts = new Map<string, PromptSegment[][]>();
	let unexpected = 0;

	const server = createServer((req, res) => {
		void handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
			res.end(JSON.stringify(wire.errorBody(500, `loopback failure: ${(error as Error).message}`)));
		});
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const rawBody = await readBody(req);
		let body: unknown;
		try {
			body = rawBody ? JSON.parse(rawBody) : undefined;
		} catch {
			body = rawBody;
		}
		const model = wire.modelOf(url.pathname, body);
		let settle!: () => void;
		const record: RecordedRequest = {
			method: req.method ?? 'GET',
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers: Object.fromEntries(
				Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
			),
			body,
			rawBody,
			model,
			prompt: wire.readPrompt(body, model),
			receivedAt: performance.timeOrigin + performance.now(),
			latency: latencyFor(options.latency, { model, body }),
			closedByClient: false,
			tooLong: false,
			streamedOutput: false,
			settled: new Promise<void>((resolve) => (settle = resolve)),
		};
		requests.push(record);
		let everyEventSent = false;
		res.on('close', () => {
			if (!res.writableFinished && !everyEventSent) record.closedByClient = true;
			record.settledAt = performance.timeOrigin + performance.now();
			settle();
		});
		if (!wire.matches(record.method, record.path)) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify(wire.errorBody(404, `loopback ${protocol}: no route ${record.method} ${record.path}`)),
			);
			return;
		}
		const gate = options.hold?.(record);
		if (gate) await gate;
		const limit = options.contextLimit;
		const bytes = Buffer.byteLength(rawBody, 'utf8');
		if (limit && bytes > limit.maxPromptBytes) {
			record.tooLong = true;
			const max = Math.floor(limit.maxPromptBytes / 4);
			const error = contextLengthError(protocol, Math.ceil(bytes / 4), max, limit.flavor);
			res.writeHead(error.status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(error.body));
			return;
		}
		const reply = options.script?.(record) ?? queue.shift() ?? (auto ? autoReply(record, auto) : undefined);
		if (!reply) {
			unexpected += 1;
			res.writeHead(500, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify(
					wire.errorBody(500, `loopback ${protocol}: no scripted reply for request ${requests.length}`),
				),
			);
			return;
		}
		if ('status' in reply) {
			res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
			res.end(
				JSON.stringify(
					reply.body ?? wire.errorBody(reply.status, reply.message ?? `loopback error ${reply.status}`),
				),
			);
			return;
		}
		if ('raw' in reply) {
			await writeRaw(
				res,
				reply.raw,
				reply.chunkBytes ?? 64,
				reply.contentType ?? 'text/event-stream',
				reply.delayMs ?? options.delayMs ?? 0,
			);
			return;
		}
		const events = 'turn' in reply ? wire.encodeTurn(reply.turn, model) : reply.events;
		const delayMs = reply.delayMs ?? options.delayMs ?? 0;
		const latency = record.latency;
		const clock = options.clock ?? realClock;
		if (latency) await pause(res, latency.firstByteMs, clock);
		const pauseAfter = latency ? pacing(latency, events.length, wire.preambleEvents) : () => delayMs;
		await streamEvents(res, events, reply, pauseAfter, clock, (sent) => {
			if (sent > wire.preambleEvents) record.streamedOutput = true;
			if (sent === events.length) everyEventSent = true;
		});
	}

	/** The auto-agent's turn, or `plainReply`'s events for a turn without workflow calls (a presentation). */
	function autoReply(record: RecordedRequest, auto: LoopbackAutoOptions): Reply {
		const turn = autoTurn(record, auto);
		const events = turn.toolCalls?.length ? undefined : auto.plainReply?.(record.model);
		return events ? { events } : { turn };
	}

	function autoTurn(record: RecordedRequest, auto: AutoAgentOptions): Turn {
		const turn = autoAgentTurn(record.prompt, { name: protocol, ...auto });
		if (!options.simulateCache) return turn;
		const segments = wire.promptSegments(record.body);
		const earlier = earlierPrompts.get(record.model) ?? [];
		earlierPrompts.set(record.model, [...earlier, segments]);
		return {
			...turn,
			usage: { output: turn.usage?.output ?? 30, ...simulateCache(protocol, segments, earlier) },
		};
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;

	return {
		protocol,
		baseUrl: `http://127.0.0.1:${port}${wire.basePath}`,
		requests,
		firstModelRequest: (since) => requests.slice(since).find((request) => request.method === 'POST'),
		get unexpected() {
			return unexpected;
		},
		enqueue: (...replies) => queue.push(...replies),
		say: (turn) => queue.push({ turn }),
		pending: () => queue.length,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

interface StreamShape {
	readonly cutAfter?: number;
	readonly endAfter?: number;
	readonly stallAfter?: number;
	readonly headers?: Readonly<Record<string, string>>;
}

async function streamEvents(
	res: ServerResponse,
	events: readonly SseEvent[],
	reply: StreamShape,
	pauseAfter: (index: number) => number,
	clock: RunClock,
	onSent: (sent: number) => void,
): Promise<void> {
	// Negative positions count from the end: `stallAfter: -1` sends all but the terminal event.
	const at = (n: number | undefined) => (n !== undefined && n < 0 ? Math.max(0, events.length + n) : n);
	const shape = {
		...reply,
		cutAfter: at(reply.cutAfter),
		endAfter: at(reply.endAfter),
		stallAfter: at(reply.stallAfter),
	};
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...shape.headers });
	res.flushHeaders();
	if (res.destroyed) return;
	let sent = 0;
	// Pauses add up to deadlines from the first event, so timer overshoot does not accumulate.
	const started = clock.now();
	let due = 0;
	for (const event of events) {
		if (res.destroyed) return;
		if (shape.cutAfter !== undefined && sent >= shape.cutAfter) {
			res.socket?.destroy();
			return;
		}
		if (shape.endAfter !== undefined && sent >= shape.endAfter) break;
		if (shape.stallAfter !== undefined && sent >= shape.stallAfter) {
			await waitClosed(res);
			return;
		}
		res.write(formatEvent(event));
		sent += 1;
		onSent(sent);
		due += pauseAfter(sent - 1);
		await pause(res, started + due - clock.now(), clock);
	}
	if (shape.cutAfter !== undefined && sent >= shape.cutAfter) {
		res.socket?.destroy();
		return;
	}
	if (shape.stallAfter !== undefined && sent >= shape.stallAfter) {
		await waitClosed(res);
		return;
	}
	res.end();
}

/** Writes a body in small byte pieces, so SSE events and UTF-8 characters straddle chunk boundaries. */
async function writeRaw(
	res: ServerResponse,
	text: string,
	chunkBytes: number,
	contentType: string,
	delayMs: number,
): Promise<void> {
	res.writeHead(200, { 'content-type': contentType });
	const bytes = Buffer.from(text, 'utf8');
	for (let i = 0; i < bytes.length && !res.destroyed; i += chunkBytes) {
		res.write(bytes.subarray(i, i + chunkBytes));
		await new Promise((resolve) => setTimeout(resolve, delayMs));
	}
	res.end();
}

function waitClosed(res: ServerResponse): Promise<void> {
	if (res.closed || res.destroyed) return Promise.resolve();
	return new Promise<void>((resolve) => res.once('close', () => resolve()));
}

function formatEvent(event: SseEvent): string {
	const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
	return `${event.event ? `event: ${event.event}\n` : ''}data: ${data}\n\n`;
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}
