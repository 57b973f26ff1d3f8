import { stringify } from 'yaml';
import { REDACTED, type Redactor } from '../secrets/redactor.js';
import { urlCredentials } from '../secrets/runSecrets.js';
import type { MassGenConfig } from './schema.js';

/** `secret_paths` names files, not secrets. */
const sensitiveKey = /key|token|secret(?!_paths)|password|authorization/i;

/**
 * The resolved config as MassGen YAML (backend `options` back in place, so the file loads
 * again) with secrets removed: `api_key`, every string under a key that looks sensitive, and
 * everything the run's redactor knows or masks (resolved keys, URL credentials), wherever it
 * appears. Numbers and booleans under sensitive-looking keys (`max_tokens`) are kept. This is
 * what a run directory's config.yaml holds.
 */
export function redactConfig(config: MassGenConfig, redactor: Redactor): string {
	const visit = (value: unknown, sensitive: boolean): unknown => {
		if (typeof value === 'string') return sensitive ? REDACTED : redactor.text(value);
		if (Array.isArray(value)) return value.map((item) => visit(item, sensitive));
		if (typeof value === 'object' && value !== null) {
			return Object.fromEntries(
				Object.entries(value).map(([key, child]) => [
					redactor.text(key),
					visit(child, sensitive || sensitiveKey.test(key)),
				]),
			);
		}
		return value;
	};
	// The second pass guards against a secret assembled by serialisation (it cannot be, today).
	// YAML 1.1 quoting, as the loader reads 1.1: strings such as '.', 'yes' or 'on' stay strings.
	return redactor.text(stringify(visit(toMassGenShape(config), false), { lineWidth: 0, version: '1.1' }));
}

/** Secret values written in the config: strings under sensitive-looking keys and URL credentials anywhere. */
export function configSecrets(config: MassGenConfig): string[] {
	const found: string[] = [];
	const visit = (value: unknown, sensitive: boolean): void => {
		if (typeof value === 'string') {
			if (sensitive) found.push(value);
			found.push(...urlCredentials(value));
		} else if (Array.isArray(value)) {
			for (const item of value) visit(item, sensitive);
		} else if (typeof value === 'object' && value !== null) {
			for (const [key, child] of Object.entries(value)) visit(child, sensitive || sensitiveKey.test(key));
		}
	};
	visit(config, false);
	return found;
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
