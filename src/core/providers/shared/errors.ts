import { ProviderError, type ProviderErrorKind } from '../spec/providerError.js';
import { redactProviderText } from '../../secrets/redactor.js';
import { retryAfterMs, type HeadersLike } from './retryAfter.js';

/** What an adapter knows when it turns an SDK failure into a `ProviderError`. */
export interface ErrorContext {
	/** Backend type (`openai`, `claude`, `grok`, …), named in every message. */
	readonly provider: string;
	/** Environment variable the key came from, named in auth messages (never the key itself). */
	readonly keyVariable?: string;
	/** The key, only so that it can be scrubbed from provider messages. */
	readonly apiKey?: string;
	/** The caller's signal: once aborted, every failure is reported as `aborted`. */
	readonly signal?: AbortSignal;
	/** Response headers seen by a recording fetch (SDKs whose errors carry none, e.g. Gemini). */
	readonly headers?: HeadersLike;
}

const networkCodes = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ETIMEDOUT',
	'EPIPE',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'UND_ERR_SOCKET',
	'UND_ERR_CLOSED',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);
const networkMessages =
	/^(terminated|fetch failed|other side closed|socket hang up|connection error\.?|request timed out\.?)$/i;
/**
 * How each API says a prompt is too long: OpenAI `context_length_exceeded` ("maximum context
 * length", "exceeds the context window"), Anthropic "prompt is too long", Gemini "The input token
 * count (…) exceeds the maximum number of tokens allowed", vLLM "maximum context length", llama.cpp
 * `exceed_context_size_error` ("exceeds the available context size"), Ollama "max context length".
 */
const contextWording =
	/context[_ ]length|context window|context[_ ]size|prompt is too long|too many tokens|maximum number of tokens|input token count|exceeds the (maximum|context)|request_too_large|reduce the length/i;
const invalidKeyWording = /api[_ ]key[_ ]invalid|api key not valid|invalid api key|incorrect api key/i;

/** Maps any failure from an SDK call (or our own stream checks) to a `ProviderError`. */
export function toProviderError(error: unknown, ctx: ErrorContext): ProviderError {
	if (ProviderError.is(error)) {
		return ctx.signal?.aborted && error.kind !== 'aborted' ? aborted(ctx, error) : error;
	}
	if (ctx.signal?.aborted || isAbort(error)) return aborted(ctx, error);
	const err = (error ?? {}) as Record<string, unknown>;
	const status = typeof err['status'] === 'number' ? err['status'] : undefined;
	const detail = providerDetail(error, ctx.apiKey);
	if (status !== undefined && status >= 400) {
		const headers = (err['headers'] as HeadersLike | undefined) ?? ctx.headers;
		return fromStatus(status, detail, retryAfterMs(headers) ?? retryDelayFromBody(detail, error), ctx, error);
	}
	const body = streamErrorBody(err);
	if (body) return fromStreamError(body.type, body.message, ctx, error);
	if (isNetwork(error)) {
		return new ProviderError({
			provider: ctx.provider,
			kind: 'network',
			message: `${ctx.provider}: network error (${innermostMessage(error, ctx.apiKey)})`,
			cause: error,
		});
	}
	return invalidResponse(
		ctx,
		`malformed response (${redactProviderText(messageOf(error), ctx.apiKey)})`,
		error,
	);
}

/** A stream that ended or broke in a way the protocol does not allow. */
export function invalidResponse(ctx: ErrorContext, what: string, cause?: unknown): ProviderError {
	return new ProviderError({
		provider: ctx.provider,
		kind: 'invalid-response',
		message: `${ctx.provider}: ${what}`,
		cause,
	});
}

/**
 * Classifies an error reported inside a 200 stream (Anthropic `error` events, OpenAI
 * `response.failed`/`error` events, Chat Completions `{"error": …}` chunks) by its type or code.
 */
export function fromStreamError(
	typeOrCode: string | undefined,
	message: string | undefined,
	ctx: ErrorContext,
	cause?: unknown,
): ProviderError {
	const code = (typeOrCode ?? '').toLowerCase();
	const text = redactProviderText(message ?? typeOrCode ?? 'unknown error', ctx.apiKey);
	let kind: ProviderErrorKind = 'server';
	let retryable: boolean | undefined;
	if (/rate_limit|rate-limit|too_many_requests|resource_exhausted/.test(code)) kind = 'rate-limit';
	else if (/insufficient_quota|billing/.test(code)) {
		kind = 'rate-limit';
		retryable = false;
	} else if (/auth|permission|invalid_api_key/.test(code)) kind = 'auth';
	else if (contextWording.test(code) || contextWording.test(text)) kind = 'context-length';
	else if (/invalid_request|invalid_prompt|not_found|bad_request/.test(code)) kind = 'invalid-response';
	return new ProviderError({
		provider: ctx.provider,
		kind,
		retryable,
		message:
			kind === 'auth'
				? authMessage(ctx, undefined, text)
				: `${ctx.provider}: stream error${code ? ` ${code}` : ''}: ${text}`,
		cause,
	});
}

function fromStatus(
	status: number,
	detail: string,
	retryAfter: number | undefined,
	ctx: ErrorContext,
	cause: unknown,
): ProviderError {
	const base = { provider: ctx.provider, status, cause };
	if (status === 401 || status === 403 || (status === 400 && invalidKeyWording.test(detail))) {
		return new ProviderError({ ...base, kind: 'auth', message: authMessage(ctx, status, detail) });
	}
	if (status === 429) {
		const quota = /insufficient_quota|exceeded your current quota|billing/i.test(detail);
		return new ProviderError({
			...base,
			kind: 'rate-limit',
			retryable: !quota,
			retryAfterMs: retryAfter,
			message: `${ctx.provider}: ${quota ? 'quota exhausted' : 'rate limited'} (429)${detail ? `: ${detail}` : ''}`,
		});
	}
	// The OpenAI SDK's `code` (`context_length_exceeded`) says it when the message does not.
	const code = (cause as { code?: unknown } | null)?.code;
	if (
		(status === 400 || status === 413 || status === 422) &&
		(status === 413 || contextWording.test(detail) || (typeof code === 'string' && contextWording.test(code)))
	) {
		return new ProviderError({
			...base,
			kind: 'context-length',
			message: `${ctx.provider}: prompt exceeds the model's context window (${status})${detail ? `: ${detail}` : ''}`,
		});
	}
	if (status >= 500 || status === 408 || status === 409) {
		return new ProviderError({
			...base,
			kind: status === 408 ? 'network' : 'server',
			retryable: true,
			retryAfterMs: retryAfter,
			message: `${ctx.provider}: server error (${status})${detail ? `: ${detail}` : ''}`,
		});
	}
	return new ProviderError({
		...base,
		kind: 'invalid-response',
		retryable: false,
		message: `${ctx.provider}: request rejected (${status})${detail ? `: ${detail}` : ''}`,
	});
}

function authMessage(ctx: ErrorContext, status: number | undefined, detail: string): string {
	const who = ctx.keyVariable ?? `${ctx.provider} API key`;
	const verb = status === 403 ? 'not permitted' : 'rejected';
	return `${who} ${verb}${status ? ` (${status})` : ''}${detail ? `: ${detail}` : ''}`;
}

function aborted(ctx: ErrorContext, cause: unknown): ProviderError {
	return new ProviderError({
		provider: ctx.provider,
		kind: 'aborted',
		message: `${ctx.provider}: request aborted`,
		cause,
	});
}

/** Gemini reports `RetryInfo.retryDelay` ("30s") in the error body instead of a header. */
function retryDelayFromBody(detail: string, error: unknown): number | undefined {
	const text = `${messageOf(error)} ${detail}`;
	const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(text);
	return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/** The provider's own explanation, without the status prefix the SDKs add, scrubbed and shortened. */
function providerDetail(error: unknown, apiKey: string | undefined): string {
	const err = (error ?? {}) as Record<string, unknown>;
	const body = err['error'] as Record<string, unknown> | undefined;
	const nested = body?.['error'] as Record<string, unknown> | undefined;
	let text =
		(typeof nested?.['message'] === 'string' && nested['message']) ||
		(typeof body?.['message'] === 'string' && body['message']) ||
		messageOf(error).replace(/^\d{3}\s+/, '');
	const parsed = parseJsonMessage(text);
	if (parsed) text = parsed;
	return shorten(redactProviderText(text, apiKey));
}

/** Gemini's `ApiError` message is the JSON error body. */
function parseJsonMessage(text: string): string | undefined {
	const start = text.indexOf('{');
	if (start < 0) return undefined;
	try {
		const body = JSON.parse(text.slice(start)) as { error?: { message?: unknown; status?: unknown } };
		const message = body.error?.message;
		if (typeof message !== 'string') return undefined;
		return typeof body.error?.status === 'string' ? `${message} [${body.error.status}]` : message;
	} catch {
		return undefined;
	}
}

function streamErrorBody(err: Record<string, unknown>): { type?: string; message?: string } | undefined {
	const body = err['error'];
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	const inner = (record['error'] as Record<string, unknown> | undefined) ?? record;
	const type = [inner['type'], inner['code'], record['type']].find(
		(v) => typeof v === 'string' && v !== 'error',
	);
	const message = inner['message'];
	return { type: type as string | undefined, message: typeof message === 'string' ? message : undefined };
}

function isAbort(error: unknown): boolean {
	const name = (error as { name?: unknown } | null)?.name;
	return (
		name === 'AbortError' || name === 'APIUserAbortError' || error?.constructor?.name === 'APIUserAbortError'
	);
}

function isNetwork(error: unknown): boolean {
	for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 6; depth++) {
		const code = e['code'];
		if (typeof code === 'string' && networkCodes.has(code)) return true;
		if (typeof e['message'] === 'string' && networkMessages.test(e['message'])) return true;
		const ctor = (e as { constructor?: { name?: string } }).constructor?.name;
		if (ctor === 'APIConnectionError' || ctor === 'APIConnectionTimeoutError') return true;
		e = e['cause'] as Record<string, unknown> | undefined;
	}
	return false;
}

function innermostMessage(error: unknown, apiKey: string | undefined): string {
	const parts: string[] = [];
	for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 6; depth++) {
		if (typeof e['message'] === 'string' && e['message']) parts.push(e['message']);
		e = e['cause'] as Record<string, unknown> | undefined;
	}
	return shorten(redactProviderText([...new Set(parts)].join(': ') || 'connection failed', apiKey));
}

function messageOf(error: unknown): string {
	if (error instanceof Error) return error.message;
	const message = (error as { message?: unknown } | null)?.message;
	if (typeof message === 'string') return message;
	return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
}

function shorten(text: string, max = 400): string {
	const oneLine = text.replace(/\s+/g, ' ').trim();
	return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}
