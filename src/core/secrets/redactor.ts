/**
 * The one redactor (docs/threat-model.md): every output channel (CLI stdout/stderr/--json, the run directory,
 * the extension's log, notifications and panel) passes its text through the run's `Redactor`,
 * which knows every secret value the run resolved (see `runSecrets.ts`) and also masks the
 * user:password part of any URL, known or not. Callers should never put secrets into output in
 * the first place; this catches echoes (a model repeating a key, an error quoting a header).
 */

export const REDACTED = '[redacted]';

/** Shorter values would match ordinary text and mangle output; real keys are far longer. */
const MIN_SECRET_CHARS = 4;

/** `scheme://user:password@` or `scheme://token@`: the userinfo goes, the rest of the URL stays. */
const urlUserinfo = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'`<>]+@/gi;

export class Redactor {
	/** Secret values, raw and JSON-escaped, longest first (a secret containing another goes whole). */
	readonly needles: readonly string[];
	/** Length of the longest needle (a streamed text keeps up to this many characters minus one back). */
	readonly longest: number;

	constructor(secrets: Iterable<string | undefined> = []) {
		const needles = new Set<string>();
		for (const secret of secrets) {
			if (secret === undefined || secret.length < MIN_SECRET_CHARS) continue;
			needles.add(secret);
			needles.add(JSON.stringify(secret).slice(1, -1));
		}
		this.needles = [...needles].sort((a, b) => b.length - a.length);
		this.longest = this.needles[0]?.length ?? 0;
	}

	/** A redactor that also knows `more`. */
	with(more: Iterable<string | undefined>): Redactor {
		return new Redactor([...this.needles, ...more]);
	}

	/**
	 * Replaces every character covered by an occurrence of a secret (overlapping occurrences merge
	 * into one marker), then URL userinfo. The hot path is one `includes` per needle.
	 */
	readonly text = (text: string): string => {
		let out = text;
		const found = this.needles.filter((needle) => out.includes(needle));
		if (found.length > 0) out = replaceCovered(out, found);
		if (out.includes('://')) out = out.replace(urlUserinfo, `$1${REDACTED}@`);
		return out;
	};

	/** Redacts every string (keys included) inside plain JSON data; returns the same value when nothing changed. */
	json<T>(value: T): T {
		return redactValue(value, this.text) as T;
	}

	/** JSON text of plain data with secrets removed (the result stays valid JSON). */
	stringify(value: unknown, indent?: string): string {
		const text = JSON.stringify(value, null, indent);
		if (this.text(text) === text) return text;
		// A secret may straddle a key and its value: check the redacted serialization once more.
		return this.text(JSON.stringify(this.json(value), null, indent));
	}
}

/** Index ranges covered by any occurrence of any needle, merged, each replaced by one marker. */
function replaceCovered(text: string, needles: readonly string[]): string {
	const ranges: [number, number][] = [];
	for (const needle of needles) {
		for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
			ranges.push([at, at + needle.length]);
		}
	}
	ranges.sort((a, b) => a[0] - b[0]);
	let out = '';
	let cursor = 0;
	for (const [start, end] of ranges) {
		if (end <= cursor) continue;
		if (start >= cursor) out += text.slice(cursor, start) + REDACTED;
		cursor = end;
	}
	return out + text.slice(cursor);
}

function redactValue(value: unknown, redact: (text: string) => string): unknown {
	if (typeof value === 'string') return redact(value);
	if (Array.isArray(value)) {
		const items = value.map((item) => redactValue(item, redact));
		return items.some((item, i) => item !== value[i]) ? items : value;
	}
	if (value !== null && typeof value === 'object') {
		let changed = false;
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) {
			const safeKey = redact(key);
			const safeItem = redactValue(item, redact);
			if (safeKey !== key || safeItem !== item) changed = true;
			// defineProperty: a redacted key named `__proto__` stays a plain key.
			Object.defineProperty(out, safeKey, {
				value: safeItem,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
		return changed ? out : value;
	}
	return value;
}

/** Shapes of provider keys, for provider error texts (which may quote a key we were never given). */
const keyShapes =
	/\b(sk-(?:ant-)?[A-Za-z0-9_\-*]{8,}|xai-[A-Za-z0-9_\-*]{8,}|gsk_[A-Za-z0-9*]{8,}|AIza[A-Za-z0-9_\-*]{8,})/g;

/** A provider's error text without the key, and without anything shaped like a key. */
export function redactProviderText(text: string, apiKey: string | undefined): string {
	return new Redactor([apiKey]).text(text).replace(keyShapes, REDACTED);
}
