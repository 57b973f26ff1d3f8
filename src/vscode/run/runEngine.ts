/**
 * Everything heavy a run needs (config schema, orchestrator, provider adapters, MCP, the
 * permission engine): its own bundle, `dist/engine.js` (see `build:ext`), loaded at the first run
 * by `loadEngineBundle` so activation neither reads nor compiles it. The SDKs themselves load
 * later still, at an adapter's first call.
 */
import { join } from 'node:path';
import type { ApprovalBroker } from '../../core/approvals/approvalBroker';
import { redactConfig } from '../../core/config/redact';
import { toOrchestratorSettings, toRunToolSettings } from '../../core/config/toSettings';
import { isWorkspaceFile } from '../../core/config/workspaceFile';
import { newRunId } from '../../core/logs/runId';
import { RunLogWriter } from '../../core/logs/runLog';
import type { RunEvent } from '../../core/events/runEvents';
import { Orchestrator } from '../../core/orchestrator/orchestrator';
import type { RunResult, Turn } from '../../core/orchestrator/types';
import { loadPriceTable, priceFor } from '../../core/providers/pricing';
import { specSecrets } from '../../core/mcp/mcpServerSpec';
import { readWorkspaceMcpServers, type WorkspaceMcpServers } from '../../core/mcp/workspaceMcpFiles';
import type { PermissionStore } from '../../core/permissions/permissionEngine';
import type { RuleLists } from '../../core/permissions/rules';
import { redactEvents } from '../../core/secrets/redactedEvents';
import { Redactor } from '../../core/secrets/redactor';
import { environmentSecrets } from '../../core/secrets/runSecrets';
import { buildAgents } from '../../core/team/buildAgents';
import { createRunTools } from '../../core/tools/guardedRunTools';
import { createWorkspace } from '../../core/workspace/createWorkspace';
import { secretPaths, type SecretPaths } from '../../core/workspace/secretPaths';
import { formatPatch } from '../../core/workspace/patch';
import type { Workspace } from '../../core/workspace/types';
import type { ApiKeySources } from '../../core/config/apiKeys';
import { extensionModelFactory } from '../lm/createExtensionModel';
import type { ChatModelLookup } from '../lm/vscodeLmModel';
import type { ResolvedTeam } from './resolveTeam';

export { loadConfigText } from '../../core/config/loadConfig';
export { readDotenv } from '../../core/config/apiKeys';
export { resolveTeam } from './resolveTeam';

/** The secrets the key sources hold (secret storage, environment, `.env`), before any team is resolved. */
export function keySecrets(keys: ApiKeySources): Redactor {
	const { secrets = {}, env, dotenv = {} } = keys;
	return new Redactor([...Object.values(secrets), ...environmentSecrets(env), ...environmentSecrets(dotenv)]);
}

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
	/** The run's redactor, once its secrets are known (before the first event and notice). */
	readonly onRedactor?: (redactor: Redactor) => void;
	/** `massgen.secretPaths`: added to the config's `secret_paths` (already validated). */
	readonly secretPaths?: readonly string[];
	/** MCP servers, `run_command` and the permission engine (architecture §11); omitted = workspace tools only. */
	readonly tools?: EngineTools;
}

/** What the editor adds to the team config's tools: trust, its settings, the broker and the grants store. */
export interface EngineTools {
	/** One per extension: the panel's cards and the notifications answer its requests. */
	readonly broker: ApprovalBroker;
	/** Workspace Trust (`vscode.workspace.isTrusted`). */
	readonly trusted: boolean;
	/** `massgen.permissions.allow|ask|deny`. */
	readonly rules: RuleLists;
	/** `massgen.permissions.approvalTimeoutSeconds` when set (else the config's). */
	readonly approvalTimeoutMs?: number;
	/** `massgen.mcp.readWorkspaceServers`: also `.vscode/mcp.json` and `.mcp.json`. */
	readonly readWorkspaceServers: boolean;
	/** `massgen.commands.allowUnsandboxed` (user settings): where no OS sandbox can start, run commands without one. */
	readonly allowUnsandboxedCommands?: boolean;
	/** "Always allow" decisions of this workspace. */
	readonly store?: PermissionStore;
	/** Servers that did not start, rules that did not parse, trust refusals, unreadable MCP files. */
	readonly onNotice: (message: string) => void;
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
	// Read first: what their `${VAR}`s expand to is secret too, and the redactor must know it before any output.
	const workspaceMcp = run.tools?.readWorkspaceServers ? await readWorkspaceMcpServers(root) : undefined;
	const expand = { env: run.keys.env, workspaceFolder: root, userHome: run.keys.env['HOME'] ?? run.keys.env['USERPROFILE'] };
	const redactor = new Redactor([...secrets, ...(workspaceMcp?.servers ?? []).flatMap((spec) => specSecrets(spec, expand))]);
	run.onRedactor?.(redactor);
	const secretFiles = secretPaths([...config.orchestrator.secret_paths, ...(run.secretPaths ?? [])]);
	const workspace = await createWorkspace(root, { protectedPaths: config.orchestrator.protected_paths, secretPaths: secretFiles });
	const runId = newRunId();
	const log = await RunLogWriter.create(root, runId, { redactor });
	run.onRunDir?.(log.runDir, runId);
	try {
		const tools = run.tools ? runTools(run, run.tools, { runDir: log.runDir, redactor, secretFiles, workspaceMcp }) : undefined;
		const orchestrator = new Orchestrator({
			runId,
			question: run.question,
			workspace,
			agents,
			settings: toOrchestratorSettings(config),
			history: run.history,
			signal: run.signal,
			...(tools ? { tools } : {}),
		});
		for await (const event of redactEvents(orchestrator.run(), redactor)) {
			log.append(event);
			run.onEvent(event);
		}
		const result = orchestrator.result!;
		try {
			const patch = formatPatch(result.changes);
			await log.finish({ result, configYaml: redactConfig(config, redactor), patch });
		} catch (error) {
			run.onLogError?.(error);
		}
		return { result, runDir: log.runDir, workspace };
	} finally {
		await log.close().catch((error: unknown) => run.onLogError?.(error));
	}
}

/** The run's `RunOptions.tools`, as `createRunTools` documents it (the CLI's `runCommand` does the same with its own broker and store). */
function runTools(run: EngineRun, tools: EngineTools, context: RunToolsContext) {
	const root = run.workspaceRoot;
	const { config, file } = run.team;
	const { runDir, redactor, workspaceMcp } = context;
	const settings = toRunToolSettings(config, { configFromWorkspace: isWorkspaceFile(root, file) });
	const onNotice = (message: string) => tools.onNotice(redactor.text(message));
	for (const notice of workspaceMcp?.notices ?? []) onNotice(notice);
	const workspaceServers = workspaceMcp?.servers;
	return createRunTools({
		workspaceRoot: root,
		agents: settings.agents,
		permissions: {
			...settings.permissions,
			...(tools.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: tools.approvalTimeoutMs }),
			...(tools.allowUnsandboxedCommands ? { commandSandbox: 'allow-unsandboxed' as const } : {}),
		},
		broker: tools.broker,
		trusted: tools.trusted,
		configFromWorkspace: isWorkspaceFile(root, file),
		settingsRules: tools.rules,
		...(tools.store ? { store: tools.store } : {}),
		...(workspaceServers ? { workspaceServers } : {}),
		runDir,
		env: run.keys.env,
		secrets: redactor.needles,
		secretPaths: context.secretFiles,
		onNotice,
	});
}

interface RunToolsContext {
	readonly runDir: string;
	readonly redactor: Redactor;
	readonly secretFiles: SecretPaths;
	readonly workspaceMcp: WorkspaceMcpServers | undefined;
}
