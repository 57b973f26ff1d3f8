/**
 * Everything heavy a run needs (the core's `runSession`: config schema, orchestrator, provider
 * adapters, MCP, the permission engine): its own bundle, `dist/engine.js` (see `build:ext`), loaded
 * at the first run by `loadEngineBundle` so activation neither reads nor compiles it. The SDKs
 * themselves load later still, at an adapter's first call.
 */
import * as vscode from 'vscode';
import type { ApiKeySources } from '../../core/config/apiKeys.js';
import { runSession, type RunSessionOptions, type RunSessionOutcome } from '../../core/run/runSession.js';
import { Redactor } from '../../core/secrets/redactor.js';
import { ripgrepInEditor } from '../../core/util/ripgrepBinary.js';
import { keySecrets as keyValues } from '../../core/team/buildAgents.js';
import { extensionModelFactory } from '../lm/createExtensionModel.js';
import type { ChatModelLookup } from '../lm/vscodeLmModel.js';
import type { ResolvedTeam } from './resolveTeam.js';

export { loadConfigText } from '../../core/config/loadConfig.js';
export { readDotenv } from '../../core/config/apiKeys.js';
export { resolveTeam } from './resolveTeam.js';
export { listWorkspaceTrust, trustHash } from '../../core/trust/workspaceTrust.js';
/** The Team view's and the team builder's part (src/vscode/team). */
export * as team from '../team/teamEngine.js';

/** The secrets the key sources hold (secret storage, environment, `.env`), before any team is resolved. */
export function keySecrets(keys: ApiKeySources): Redactor {
	return new Redactor(keyValues(keys));
}

/** A run as the editor starts it: its resolved team and its `vscode_lm` models (`vscode.lm`). */
export interface EngineRun extends Omit<RunSessionOptions, 'createModel'> {
	readonly team: ResolvedTeam;
	readonly lookup?: ChatModelLookup;
}

/** One run with the editor's inputs; nothing is written to the workspace. */
export function runTeam(run: EngineRun): Promise<RunSessionOutcome> {
	const { lookup, ...session } = run;
	// The editor's own ripgrep (`vscode.env.appRoot`), else `rg` on PATH, else search_files' walker.
	const ripgrep = ripgrepInEditor(vscode.env.appRoot) ?? undefined;
	return runSession({ ...session, createModel: extensionModelFactory(lookup), ripgrep });
}
