/**
 * A `codex` agent as a `ChatModel` (issue 14), on the seam `claudeCodeModel.ts` uses: each
 * `stream()` call is one step of a Codex thread whose agent loop runs in the agent's private
 * folder (`WorkingFolder`) with our prompt as its developer instructions. A call that continues
 * the last (same overlay and prompt, its messages extending what the CLI saw) answers the bridged
 * calls the CLI is waiting on, or starts the thread's next turn with what the runtime added; any
 * other starts a new thread. At the end of a step the folder's changes come out as `write_file` /
 * `delete_file` calls before the bridged call that ended it, so the runtime applies them first.
 *
 * Codex's commands and patches run in its own sandbox (writable: the folder only, no network, no
 * approvals); the CLI process itself runs as a plain process of the run.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Codex } from '@openai/codex-sdk';
import type { CodingAgentSettings } from '../../config/backendSchema.js';
import { EventQueue } from '../../util/eventQueue.js';
import type { Overlay } from '../../workspace/types.js';
import type { BackendSettings } from '../backendSettings.js';
import type { ChatMessage, ChatModel, ChatRequest, ModelEvent, ToolCall } from '../model.js';
import { ProviderError } from '../providerError.js';
import { bridgedTools } from './claudeCodeBridge.js';
import { codexBridgeName, startCodexBridge, type CodexBridgedCall } from './codexBridge.js';
import { classifyCodexError, CodexConversation } from './codexConversation.js';
import { codexKeyVariable, codexOptions } from './codexOptions.js';
import { refusedEditsNote, renderConversation } from './conversationText.js';
import { WorkingFolder } from './workingFolder.js';

export interface CodexModelOptions {
	/** The host environment (PATH, HOME, `OPENAI_API_KEY`). */
	readonly env: Readonly<Record<string, string | undefined>>;
}

interface Session {
	readonly conversation: CodexConversation;
	readonly overlay: Overlay;
	readonly system: string;
	readonly first: ChatMessage | undefined;
	/** How many of the request's messages the CLI has, counting the assistant message of our last call. */
	covered: number;
	lastCallIds: readonly string[];
	/** Our `write_file` / `delete_file` call ids → path, for the last call. */
	readonly edits: Map<string, string>;
	/** Bridged calls handed to the runtime, waiting for its result. */
	readonly waiting: Map<string, CodexBridgedCall>;
}

type CodexSdk = typeof import('@openai/codex-sdk');
let loading: Promise<CodexSdk> | undefined;

/** The SDK is ESM (it reads `import.meta.url`): the bundles keep it external, loaded at run time. */
function loadCodexSdk(): Promise<CodexSdk> {
	loading ??= import('@openai/codex-sdk').catch((error: unknown) => {
		loading = undefined;
		throw new ProviderError({
			provider: 'codex',
			kind: 'unavailable',
			retryable: false,
			message: `type codex: the Codex SDK could not be loaded (${(error as Error).message})`,
		});
	});
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

	constructor(
		private readonly settings: BackendSettings,
		private readonly options: CodexModelOptions,
	) {
		this.modelId = settings.model;
		this.coding = (settings.options['coding_agent'] ?? {}) as CodingAgentSettings;
	}

	/**
	 * The private `CODEX_HOME`: under the user's cache folder, because Codex will not install its
	 * sandbox helper under the temp folder (every command then fails).
	 */
	private get codexHome(): string {
		const env = this.options.env;
		const cache = env['XDG_CACHE_HOME'] || join(env['HOME'] || env['USERPROFILE'] || homedir(), '.cache');
		return join(cache, 'massgen', this.label);
	}

	async prepare(): Promise<void> {
		await loadCodexSdk().catch(() => undefined);
	}

	async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
		const queue = new EventQueue<ModelEvent>();
		let failure: unknown;
		const work = this.call(request, signal, (event) => queue.push(event)).then(
			() => queue.close(),
			(error: unknown) => {
				failure = error;
				queue.close();
			},
		);
		for await (const event of queue) yield event;
		await work;
		if (failure !== undefined) {
			await this.endSession();
			throw ProviderError.is(failure) ? failure : classifyCodexError(failure);
		}
	}

	async close(): Promise<void> {
		await this.endSession();
		await this.folder?.dispose();
		this.folder = undefined;
		await rm(this.codexHome, { recursive: true, force: true }).catch(() => undefined);
	}

	private async call(
		request: ChatRequest,
		signal: AbortSignal,
		emit: (e: ModelEvent) => void,
	): Promise<void> {
		const overlay = request.overlay;
		if (overlay === undefined) {
			throw new ProviderError({
				provider: this.provider,
				kind: 'unavailable',
				retryable: false,
				message: 'type codex: this call has no overlay to lay out the agent folder from',
			});
		}
		const sdk = await loadCodexSdk();
		const folder = (this.folder ??= new WorkingFolder(overlay.workspace.root, this.label, overlay));
		let session = this.session;
		if (session !== undefined && this.continues(session, request)) {
			if (!(await this.resume(session, request, overlay, folder))) {
				emit({ type: 'finish', reason: 'stop' });
				session.covered = request.messages.length + 1;
				session.lastCallIds = [];
				return;
			}
		} else {
			await this.endSession();
			const dir = await folder.prepare(overlay);
			session = await this.open(sdk.Codex, request, overlay, dir);
			this.noticeIgnoredKeys(emit);
			await session.conversation.send(renderConversation(request.messages));
		}
		session.conversation.bridge.offer(new Set(request.tools.map((tool) => tool.name)));
		const outcome = await session.conversation.turn(emit, signal);
		const calls: ToolCall[] = [];
		const diff = await folder.diff();
		for (const edit of diff.edits) {
			const id = `cx_edit_${++this.ids}`;
			session.edits.set(id, edit.path);
			calls.push(
				edit.content === null
					? { id, name: 'delete_file', arguments: { path: edit.path } }
					: { id, name: 'write_file', arguments: { path: edit.path, content: edit.content } },
			);
		}
		if (diff.skipped.length > 0) {
			emit({
				type: 'reasoning-delta',
				text: `\n(not text, left out of the answer: ${diff.skipped.join(', ')})\n`,
			});
		}
		for (const call of outcome.calls) {
			session.waiting.set(call.id, call);
			calls.push({ id: call.id, name: call.name, arguments: call.args });
		}
		for (const call of calls) emit({ type: 'tool-call', call });
		emit({ type: 'finish', reason: calls.length > 0 ? 'tool-calls' : 'stop' });
		session.covered = request.messages.length + 1;
		session.lastCallIds = calls.map((call) => call.id);
	}

	/** Whether this request goes on from the session's last call. */
	private continues(session: Session, request: ChatRequest): boolean {
		if (request.overlay !== session.overlay || request.system !== session.system) return false;
		if (request.messages.length <= session.covered || request.messages[0] !== session.first) return false;
		const ours = request.messages[session.covered - 1];
		if (ours?.role !== 'assistant') return false;
		const ids = (ours.toolCalls ?? []).map((call) => call.id);
		return ids.length === session.lastCallIds.length && ids.every((id, i) => id === session.lastCallIds[i]);
	}

	/** Hands the runtime's results and messages to the CLI; false when there is nothing for it to do. */
	private async resume(
		session: Session,
		request: ChatRequest,
		overlay: Overlay,
		folder: WorkingFolder,
	): Promise<boolean> {
		const refusals: { path: string; reason: string }[] = [];
		const results: [CodexBridgedCall, string, boolean][] = [];
		const texts: string[] = [];
		for (const message of request.messages.slice(session.covered)) {
			if (message.role === 'user') texts.push(message.content);
			if (message.role !== 'tool') continue;
			const path = session.edits.get(message.toolCallId);
			if (path !== undefined) {
				if (message.isError) {
					await folder.revert(path, overlay);
					refusals.push({ path, reason: message.content });
				}
				continue;
			}
			const call = session.waiting.get(message.toolCallId);
			if (call !== undefined) results.push([call, message.content, message.isError === true]);
		}
		session.edits.clear();
		await folder.prepare(overlay);
		const note = [refusedEditsNote(refusals), ...texts].filter(Boolean).join('\n\n');
		if (results.length > 0) {
			// The CLI's turn is still running (it waits on these calls): what else there is rides along.
			for (const [index, [call, text, isError]] of results.entries()) {
				session.waiting.delete(call.id);
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
		dir: string,
	): Promise<Session> {
		const bridge = await startCodexBridge(bridgedTools(request.tools), () => `cx_call_${++this.ids}`);
		this.bridgeClose = () => bridge.close();
		const env = this.options.env;
		await mkdir(this.codexHome, { recursive: true, mode: 0o700 });
		const apiKey = this.settings.apiKey ?? env[codexKeyVariable];
		const effort = (this.settings.options['reasoning'] as { effort?: string } | undefined)?.effort;
		const { client, thread, ignoredKeys } = codexOptions({
			// Without cli_path the SDK finds the native binary of @openai/codex beside it. Not the `codex`
			// on PATH: that is npm's Node wrapper, which outlives the binary when it is ended (tested).
			settings: this.coding,
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
		const session: Session = {
			conversation: new CodexConversation(new codex(client).startThread(thread), bridge),
			overlay,
			system: request.system,
			first: request.messages[0],
			covered: 0,
			lastCallIds: [],
			edits: new Map(),
			waiting: new Map(),
		};
		this.session = session;
		this.ignoredKeys = ignoredKeys;
		return session;
	}

	/** The config's keys Codex has no counterpart for, said once. */
	private noticeIgnoredKeys(emit: (event: ModelEvent) => void): void {
		if (this.noticed || this.ignoredKeys.length === 0) return;
		this.noticed = true;
		emit({ type: 'notice', message: `codex has no counterpart for ${this.ignoredKeys.join(', ')}: ignored` });
	}

	private async endSession(): Promise<void> {
		this.session?.conversation.close();
		this.session = undefined;
		await this.bridgeClose?.();
		this.bridgeClose = undefined;
	}
}
