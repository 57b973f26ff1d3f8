/**
 * A `codex` agent as a `ChatModel` (docs/coding-agents.md), on the seam `claudeCodeModel.ts` uses: each
 * `stream()` call is one step of a Codex thread whose agent loop runs in the agent's private
 * folder (`WorkingFolder`) with our prompt as its developer instructions. A call that continues
 * the last (same overlay and prompt, its messages extending what the CLI saw) answers the bridged
 * calls the CLI is waiting on, or starts the thread's next turn with what the runtime added; any
 * other starts a new thread. At the end of a step the folder's changes come out as `write_file` /
 * `delete_file` calls before the bridged call that ended it, so the runtime applies them first.
 *
 * The CLI has no shell (`codexOptions.ts`): commands go through our bridged `run_command`. Its
 * patches go through its own sandbox policy (the folder only), and the CLI process itself runs in
 * our bubblewrap (`codexLauncher.ts`) where it can start: its own PID namespace, writable only in
 * the folder and its private `CODEX_HOME`, the user's workspace hidden.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Codex } from '@openai/codex-sdk';
import type { CodingAgentSettings } from '../spec/codingAgentTypes.js';
import type { Overlay } from '../../workspace/types.js';
import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatModel, ChatRequest, ModelEvent } from '../spec/model.js';
import { ProviderError } from '../spec/providerError.js';
import { bridgedTools } from './claudeCodeBridge.js';
import {
	collectReturns,
	continues,
	endIdle,
	endTurn,
	newLedger,
	overlayOf,
	streamCall,
	type BridgedCall,
	type TurnLedger,
} from './agentTurns.js';
import { codexFallback, usableBubblewrap } from './cliBinaries.js';
import { realFolder } from './cliSandbox.js';
import { codexBridgeName, startCodexBridge } from './codexBridge.js';
import { classifyCodexError, CodexConversation } from './codexConversation.js';
import { codexUnsandboxedNote, containedClient } from './codexLauncher.js';
import { codexKeyVariable, codexOptions } from './codexOptions.js';
import { CodexUsage } from './codexUsage.js';
import { refusedEditsNote, renderConversation } from './conversationText.js';
import { killMarkedProcesses } from './markedProcesses.js';
import { importSdk, shippedSdkFiles } from './shippedSdk.js';
import { WorkingFolder } from './workingFolder.js';

export interface CodexModelOptions {
	/** The host environment (PATH, HOME, `OPENAI_API_KEY`). */
	readonly env: Readonly<Record<string, string | undefined>>;
	/** The host's path to the CLI (`HostPaths.codingAgents`), used when the config has no `cli_path`. */
	readonly cliPath?: string;
}

interface Session extends TurnLedger<BridgedCall> {
	readonly conversation: CodexConversation;
}

type CodexSdk = typeof import('@openai/codex-sdk');
let loading: Promise<CodexSdk> | undefined;

/** The SDK is ESM (it reads `import.meta.url`): the bundles import `dist/codex-sdk.mjs` (`shippedSdk.ts`). */
function loadCodexSdk(): Promise<CodexSdk> {
	loading ??= importSdk<CodexSdk>(shippedSdkFiles.codex, () => import('@openai/codex-sdk')).catch(
		(error: unknown) => {
			loading = undefined;
			throw new ProviderError({
				provider: 'codex',
				kind: 'unavailable',
				retryable: false,
				message: `type codex: the Codex SDK could not be loaded (${(error as Error).message})`,
			});
		},
	);
	return loading;
}

export class CodexModel implements ChatModel {
	readonly provider = 'codex';
	readonly modelId: string;
	readonly capabilities = { tools: true, reasoning: true } as const;
	private readonly label = `codex-${randomUUID().slice(0, 8)}`;
	private readonly coding: CodingAgentSettings;
	private folder: WorkingFolder | undefined;
	private session: Session | undefined;
	private bridgeClose: (() => Promise<void>) | undefined;
	private ids = 0;
	private ignoredKeys: readonly string[] = [];
	private noticed = false;
	private bwrap: Promise<string | undefined> | undefined;
	private toldUnsandboxed = false;

	constructor(
		private readonly settings: BackendSettings,
		private readonly options: CodexModelOptions,
	) {
		this.modelId = settings.model;
		this.coding = (settings.options['coding_agent'] ?? {}) as CodingAgentSettings;
	}

	/**
	 * The agent's own folder: under the user's cache folder, because Codex will not install its
	 * sandbox helper under the temp folder (its sandboxed patches then fail). It holds the private
	 * `CODEX_HOME` and, read-only to the CLI, its launcher.
	 */
	private get agentDir(): string {
		const env = this.options.env;
		const cache = env['XDG_CACHE_HOME'] || join(env['HOME'] || env['USERPROFILE'] || homedir(), '.cache');
		return join(cache, 'massgen', this.label);
	}

	private get codexHome(): string {
		return join(this.agentDir, 'home');
	}

	async prepare(): Promise<void> {
		await loadCodexSdk().catch(() => undefined);
	}

	stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
		return streamCall(
			(emit) => this.call(request, signal, emit),
			async (failure) => {
				await this.endSession();
				return ProviderError.is(failure) ? failure : classifyCodexError(failure);
			},
		);
	}

	async close(): Promise<void> {
		await this.endSession();
		await this.folder?.dispose();
		this.folder = undefined;
		await rm(this.agentDir, { recursive: true, force: true }).catch(() => undefined);
	}

	private async call(
		request: ChatRequest,
		signal: AbortSignal,
		emit: (e: ModelEvent) => void,
	): Promise<void> {
		const overlay = overlayOf(request, this.provider);
		const sdk = await loadCodexSdk();
		const folder = (this.folder ??= new WorkingFolder(overlay.workspace.root, this.label, overlay));
		let session = this.session;
		if (session !== undefined && continues(session, request)) {
			if (!(await this.resume(session, request, folder))) return endIdle(session, request, emit);
		} else {
			await this.endSession();
			const dir = await folder.prepare(overlay);
			const bwrap = await (this.bwrap ??= usableBubblewrap(this.options.env));
			session = await this.open(sdk.Codex, request, overlay, { folder, dir, bwrap });
			this.noticeIgnoredKeys(emit);
			if (bwrap === undefined && !this.toldUnsandboxed) {
				this.toldUnsandboxed = true;
				emit({ type: 'reasoning-delta', text: `${codexUnsandboxedNote}\n` });
			}
			await session.conversation.send(renderConversation(request.messages));
		}
		session.conversation.bridge.offer(new Set(request.tools.map((tool) => tool.name)));
		const outcome = await session.conversation.turn(emit, signal);
		await endTurn(session, request, folder, outcome.calls, emit, () => `cx_edit_${++this.ids}`);
	}

	/** Hands the runtime's results and messages to the CLI; false when there is nothing for it to do. */
	private async resume(session: Session, request: ChatRequest, folder: WorkingFolder): Promise<boolean> {
		const { results, refusals, texts } = await collectReturns(session, request, folder);
		const note = [refusedEditsNote(refusals), ...texts].filter(Boolean).join('\n\n');
		if (results.length > 0) {
			// The CLI's turn is still running (it waits on these calls): what else there is rides along.
			for (const [index, [call, text, isError]] of results.entries()) {
				call.answer(index === 0 && note ? `${text}\n\n${note}` : text, isError);
			}
			return true;
		}
		if (!note) return false;
		await session.conversation.send(note);
		return true;
	}

	private async open(
		codex: typeof Codex,
		request: ChatRequest,
		overlay: Overlay,
		place: { readonly folder: WorkingFolder; readonly dir: string; readonly bwrap: string | undefined },
	): Promise<Session> {
		const { folder, dir, bwrap } = place;
		const bridge = await startCodexBridge(bridgedTools(request.tools), () => `cx_call_${++this.ids}`);
		this.bridgeClose = () => bridge.close();
		const env = this.options.env;
		await mkdir(this.codexHome, { recursive: true, mode: 0o700 });
		const apiKey = this.settings.apiKey ?? env[codexKeyVariable];
		const effort = (this.settings.options['reasoning'] as { effort?: string } | undefined)?.effort;
		const options = codexOptions({
			// Without a path: the SDK's own binary where it has one, else the `codex` on PATH, npm's Node
			// wrapper resolved to its native binary (the wrapper outlives the binary when ended).
			settings: { ...this.coding, ...this.cliPath(codex) },
			model: this.settings.model,
			...(effort === undefined ? {} : { reasoningEffort: effort }),
			...(apiKey === undefined ? {} : { apiKey }),
			...(this.settings.baseUrl === undefined ? {} : { baseUrl: this.settings.baseUrl }),
			hostEnv: env,
			codexHome: this.codexHome,
			cwd: dir,
			systemPrompt: request.system,
			mcpServers: {},
			bridge: { name: codexBridgeName, url: bridge.url, token: bridge.token },
		});
		const { thread, ignoredKeys } = options;
		const marked = { ...options.client, env: { ...options.client.env, MASSGEN_CODING_AGENT: this.label } };
		const client =
			bwrap === undefined
				? marked
				: await containedClient(codex, marked, {
						bwrap,
						launcherDir: this.agentDir,
						folder: dir,
						writable: [this.codexHome],
						dependencyMounts: folder.dependencyMounts,
						hidden: [realFolder(overlay.workspace.root)],
						hostHome: env['HOME'],
					});
		const session: Session = {
			...newLedger<BridgedCall>(request, overlay),
			conversation: new CodexConversation(
				new codex(client).startThread(thread),
				bridge,
				new CodexUsage(this.codexHome),
			),
		};
		this.session = session;
		this.ignoredKeys = ignoredKeys;
		return session;
	}

	/** The config's `cli_path`, else the host's (`options.cliPath`), else `codexFallback`. */
	private cliPath(codex: typeof Codex): { cli_path?: string } {
		const env = this.options.env;
		const path =
			this.coding.cli_path ?? this.options.cliPath ?? codexFallback(() => new codex({}), env['PATH']);
		return path === undefined ? {} : { cli_path: path };
	}

	/** The config's keys Codex has no counterpart for, said once. */
	private noticeIgnoredKeys(emit: (event: ModelEvent) => void): void {
		if (this.noticed || this.ignoredKeys.length === 0) return;
		this.noticed = true;
		emit({ type: 'notice', message: `codex has no counterpart for ${this.ignoredKeys.join(', ')}: ignored` });
	}

	private async endSession(): Promise<void> {
		if (this.session !== undefined) {
			this.session.conversation.close();
			// An abort in bwrap's first moments orphans its sandboxed half (`markedProcesses.ts`).
			killMarkedProcesses(this.label);
		}
		this.session = undefined;
		await this.bridgeClose?.();
		this.bridgeClose = undefined;
	}
}
