import { stringify } from 'yaml';
import type { MassGenConfig } from './schema.js';

const sensitiveKey = /key|token|secret|password|authorization/i;
const redacted = '[redacted]';

/**
 * The resolved config as MassGen YAML (backend `options` back in place, so the file loads
 * again) with secrets removed: `api_key`, every string under a key that looks sensitive, and
 * every occurrence of a value in `secrets`, wherever it appears. Numbers and booleans under
 * sensitive-looking keys (`max_tokens`) are kept. This is what a run directory's config.yaml holds.
 */
export function redactConfig(config: MassGenConfig, secrets: readonly string[]): string {
	// Longest first, so a secret containing another is replaced whole.
	const values = [...new Set(secrets.filter((secret) => secret.length > 0))].sort(
		(a, b) => b.length - a.length,
	);
	const scrub = (text: string): string =>
		values.reduce((out, secret) => out.split(secret).join(redacted), text);
	const visit = (value: unknown, sensitive: boolean): unknown => {
		if (typeof value === 'string') return sensitive ? redacted : scrub(value);
		if (Array.isArray(value)) return value.map((item) => visit(item, sensitive));
		if (typeof value === 'object' && value !== null) {
			return Object.fromEntries(
				Object.entries(value).map(([key, child]) => [
					scrub(key),
					visit(child, sensitive || sensitiveKey.test(key)),
				]),
			);
		}
		return value;
	};
	// The second scrub guards against a secret assembled by serialisation (it cannot be, today).
	// YAML 1.1 quoting, as the loader reads 1.1: strings such as '.', 'yes' or 'on' stay strings.
	return scrub(stringify(visit(toMassGenShape(config), false), { lineWidth: 0, version: '1.1' }));
}

/** The normalised config in MassGen's shape: pass-through backend keys sit in `backend` again. */
function toMassGenShape(config: MassGenConfig): unknown {
	return {
		...config,
		agents: config.agents.map(({ backend, ...agent }) => {
			const { options, ...known } = backend;
			return { ...agent, backend: { ...known, ...options } };
		}),
	};
}
