/**
 * Everything heavy a run needs (the core's `prepareRun` and `startRun`: config schema, orchestrator,
 * provider adapters, MCP, the permission engine): its own bundle, `dist/engine.js` (see `build:ext`),
 * loaded at the first run by `loadEngineBundle` so activation neither reads nor compiles it. The
 * SDKs themselves load later still, at an adapter's first call.
 */
import * as vscode from 'vscode';
import type { HostPaths, RunHost } from '../../core/run/runHost.js';
import { ripgrepInEditor } from '../../core/util/ripgrepBinary.js';
import { extensionModelFactory } from '../lm/createExtensionModel.js';
import { type ChatModelInfo, pickChatModel, takesImages } from '../lm/pickChatModel.js';
import { vscodeLmModels } from './vscodeLmModels.js';

export { loadConfigText } from '../../core/config/loadConfig.js';
export { prepareRun } from '../../core/run/prepareRun.js';
export { runKeys } from '../../core/run/runKeys.js';
export { startRun } from '../../core/run/startRun.js';
export { spentOnDay } from '../../core/runStore/daySpend.js';
export { trustHash } from '../../core/trust/workspaceTrust.js';
/** The Team view's and the team builder's part (src/vscode/team). */
export * as team from '../team/teamEngine.js';

/** The editor's own ripgrep (`vscode.env.appRoot`), else `rg` on PATH, else search_files' walker. */
export function editorPaths(): Pick<HostPaths, 'ripgrep'> {
	const ripgrep = ripgrepInEditor(vscode.env.appRoot);
	return ripgrep ? { ripgrep } : {};
}

/**
 * VS Code's language models (`type: vscode_lm`): checked when the team resolves, made when it runs,
 * each taking images as the listing the check read says (`takesImages`).
 */
export function editorModels(
	lmModels: () => Promise<readonly ChatModelInfo[]>,
): NonNullable<RunHost['models']> {
	let listed: readonly ChatModelInfo[] = [];
	const listing = async () => (listed = await lmModels());
	return {
		resolve: vscodeLmModels(listing),
		create: extensionModelFactory(undefined, (model) => takesImages(pickChatModel(listed, model))),
	};
}
