/**
 * Last line of defence for the run directory: known secret values (API keys the caller resolved)
 * are replaced before anything is written. Callers should never put secrets into events in the
 * first place; this catches echoes (a model repeating a key, an error message quoting a header).
 * A secret split across two events (two streamed deltas) cannot be recognised here.
 */

export const REDACTED = '[REDACTED]';

/** Shorter values would match ordinary text and mangle the log; real keys are far longer. */
export const MIN_SECRET_CHARS = 4;

export type Redactor = (text: string) => string;

/**
 * Prepares a redactor once per run (the hot path is one `includes` per needle and line). Each
 * secret is matched raw and JSON-escaped (a key with quotes or backslashes appears escaped inside
 * serialized JSON); longer needles go first so a secret containing another is replaced whole.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
	const needles = new Set<string>();
	for (const secret of secrets) {
		if (secret.length < MIN_SECRET_CHARS) continue;
		needles.add(secret);
		needles.add(JSON.stringify(secret).slice(1, -1));
	}
	const ordered = [...needles].sort((a, b) => b.length - a.length);
	if (ordered.length === 0) return (text) => text;
	return (text) => {
		let out = text;
		for (const needle of ordered) {
			if (out.includes(needle)) out = out.replaceAll(needle, REDACTED);
		}
		return out;
	};
}

/** Replaces every occurrence of each secret (raw or JSON-escaped) in `text` with `[REDACTED]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
	return createRedactor(secrets)(text);
}

/** Redacts every string (keys included) inside plain JSON data; returns a copy. */
export function redactJson(value: unknown, redact: Redactor): unknown {
	if (typeof value === 'string') return redact(value);
	if (Array.isArray(value)) return value.map((item) => redactJson(item, redact));
	if (value !== null && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) {
			Object.defineProperty(out, redact(key), {
				value: redactJson(item, redact),
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
		return out;
	}
	return value;
}

/**
 * Serializes plain JSON data with secrets removed. The fast path checks the serialized text; only
 * when a secret shows up is the value redacted string by string (which keeps the JSON valid),
 * then the text is checked once more for a secret that straddles a key and its value.
 */
export function stringifyRedacted(value: unknown, redact: Redactor, indent?: string): string {
	const text = JSON.stringify(value, null, indent);
	if (redact(text) === text) return text;
	return redact(JSON.stringify(redactJson(value, redact), null, indent));
}
