/**
 * Everything heavy a run needs (config schema, orchestrator, provider adapters), loaded with a
 * dynamic `import()` at the first run so activation stays fast (esbuild keeps this module and
 * its imports uninitialised until then). The SDKs themselves load later still, at an adapter's
 * first call.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactConfig } from '../../core/config/redact';
import { toOrchestratorSettings } from '../../core/config/toSettings';
import { newRunId } from '../../core/logs/runId';
import { RunLogWriter } from '../../core/logs/runLog';
import type { RunEvent } from '../../core/orchestrator/events';
import { Orchestrator } from '../../core/orchestrator/orchestrator';
import type { RunResult, Turn } from '../../core/orchestrator/types';
import { loadPriceTable, priceFor } from '../../core/providers/pricing';
import { buildAgents } from '../../core/team/buildAgents';
import { createWorkspace } from '../../core/workspace/createWorkspace';
import { formatPatch } from '../../core/workspace/patch';
import type { Workspace } from '../../core/workspace/types';
import type { ApiKeySources } from '../../core/config/apiKeys';
import { extensionModelFactory } from '../lm/createExtensionModel';
import type { ChatModelLookup } from '../lm/vscodeLmModel';
import type { ResolvedTeam } from './resolveTeam';

export { loadConfigText } from '../../core/config/loadConfig';
export { readDotenv } from '../../core/config/apiKeys';
export { resolveTeam } from './resolveTeam';

export interface EngineRun {
	readonly workspaceRoot: string;
	readonly question: string;
	readonly history: readonly Turn[];
	readonly team: ResolvedTeam;
	readonly keys: ApiKeySources;
	readonly shippedConfigsDir: string;
	readonly signal: AbortSignal;
	readonly lookup?: ChatModelLookup;
	/** Called for every event, in order, before the next one is read. */
	readonly onEvent: (event: RunEvent) => void;
	/** The run directory exists (called before the first event). */
	readonly onRunDir?: (runDir: string, runId: string) => void;
	readonly onLogError?: (error: unknown) => void;
}

export interface EngineResult {
	readonly result: RunResult;
	readonly runDir: string;
	readonly workspace: Workspace;
}

/** One run as `src/cli/runCommand.ts` does it, minus `--apply`: nothing is written to the workspace. */
export async function runTeam(run: EngineRun): Promise<EngineResult> {
	const { config } = run.team;
	const root = run.workspaceRoot;
	const prices = await loadPriceTable(join(run.shippedConfigsDir, 'prices.yaml')).catch(() => undefined);
	// vscode_lm models are paid for by the user's subscription: no per-token price.
	const priceOf = (provider: string, model: string) =>
		provider === 'vscode_lm' || !prices ? undefined : (priceFor(provider, model, prices) ?? undefined);
	const { agents, secrets } = buildAgents(config, {
		keys: run.keys,
		priceOf,
		createModel: extensionModelFactory(run.lookup),
	});
	const workspace = await createWorkspace(root, { protectedPaths: config.orchestrator.protected_paths });
	const runId = newRunId();
	const log = await RunLogWriter.create(root, runId, { secrets });
	run.onRunDir?.(log.runDir, runId);
	try {
		const orchestrator = new Orchestrator({
			runId,
			question: run.question,
			workspace,
			agents,
			settings: toOrchestratorSettings(config),
			history: run.history,
			signal: run.signal,
		});
		for await (const event of orchestrator.run()) {
			log.append(event);
			run.onEvent(event);
		}
		const result = orchestrator.result!;
		try {
			const patch = await formatPatch(result.changes, (path) => readOrNull(join(root, path)));
			await log.finish({ result, configYaml: redactConfig(config, secrets), patch });
		} catch (error) {
			run.onLogError?.(error);
		}
		return { result, runDir: log.runDir, workspace };
	} finally {
		await log.close().catch((error: unknown) => run.onLogError?.(error));
	}
}

async function readOrNull(path: string): Promise<string | null> {
	try {
		return await readFile(path, 'utf8');
	} catch {
		return null;
	}
}
