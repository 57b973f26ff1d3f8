import { Redactor } from './redactor.js';
import { environmentSecrets } from './runSecrets.js';

/**
 * Where a host's keys are (the shape of `config/apiKeys.ts`'s `ApiKeySources`, which this
 * layer may not import): its stored keys, its environment, and a trusted workspace's `.env`.
 */
export interface KeySecretSources {
	readonly secrets?: Readonly<Record<string, string>>;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly dotenv?: Readonly<Record<string, string>>;
}

/** The secrets the key sources hold (every stored value, secret-looking environment and `.env` values). */
export function keySecrets(sources: KeySecretSources): string[] {
	const { secrets = {}, env, dotenv = {} } = sources;
	return [...Object.values(secrets), ...environmentSecrets(env), ...environmentSecrets(dotenv)];
}

/**
 * The one seed of every shell's output redactor and every run's. A shell seeds it with its
 * environment alone (`{ env }`) before any workspace is known: argument errors, `massgen runs`
 * and `show`, an internal error, the editor's log before its first run. `prepareRun` seeds the
 * run's with the run's key sources, which add the stored keys and the trusted workspace's `.env`:
 * those are known only once the host and the workspace are, so the two differ by exactly them.
 * The run's redactor later learns what the team resolves (`runSession`).
 */
export function seedRedactor(sources: KeySecretSources): Redactor {
	return new Redactor(keySecrets(sources));
}
