/** `unavailable`: this backend cannot run here at all (e.g. a coding agent not supported yet). */
export type ProviderErrorKind =
	| 'auth'
	| 'rate-limit'
	| 'context-length'
	| 'server'
	| 'network'
	| 'aborted'
	| 'invalid-response'
	| 'unavailable';

const marker = Symbol.for('massgen.ProviderError');

export interface ProviderErrorInit {
	readonly provider: string;
	readonly kind: ProviderErrorKind;
	readonly message: string;
	readonly status?: number;
	readonly retryable?: boolean;
	readonly retryAfterMs?: number;
	readonly cause?: unknown;
}

/** The only error a `ChatModel` throws. The orchestrator alone decides whether to retry. */
export class ProviderError extends Error {
	readonly [marker] = true;
	readonly provider: string;
	readonly kind: ProviderErrorKind;
	readonly status: number | undefined;
	readonly retryable: boolean;
	readonly retryAfterMs: number | undefined;

	constructor(init: ProviderErrorInit) {
		super(init.message, { cause: init.cause });
		this.name = 'ProviderError';
		this.provider = init.provider;
		this.kind = init.kind;
		this.status = init.status;
		this.retryable = init.retryable ?? defaultRetryable(init.kind);
		this.retryAfterMs = init.retryAfterMs;
	}

	/** Survives duplicate module copies (bundles), unlike `instanceof`. */
	static is(value: unknown, kind?: ProviderErrorKind): value is ProviderError {
		return (
			typeof value === 'object' &&
			value !== null &&
			(value as Record<symbol, unknown>)[marker] === true &&
			(kind === undefined || (value as ProviderError).kind === kind)
		);
	}
}

function defaultRetryable(kind: ProviderErrorKind): boolean {
	return kind === 'rate-limit' || kind === 'server' || kind === 'network';
}
