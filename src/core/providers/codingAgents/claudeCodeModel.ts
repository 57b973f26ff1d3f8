/**
 * A `claude_code` agent as a `ChatModel` (issue 14). Each `stream()` call is one turn of the
 * Claude Code CLI, which runs its own agent loop in the agent's private folder (`WorkingFolder`)
 * with our system prompt. A call that continues the last (same overlay and system prompt, its
 * messages extending what the CLI saw) goes on in the same CLI session with only what was added;
 * any other starts a new one. At the end of a turn the folder's changes come out as `write_file`
 * / `delete_file` calls, before the bridged call (a workflow tool, `run_command`, …) that ended it,
 * so the runtime applies them to the overlay through the guarded toolbox first.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { CodingAgentSettings } from '../../config/backendSchema.js';
import { EventQueue } from '../../util/eventQueue.js';
import type { Overlay } from '../../workspace/types.js';
import type { BackendSettings } from '../backendSettings.js';
import type { ChatMessage, ChatModel, ChatRequest, ModelEvent, ToolCall } from '../model.js';
import { ProviderError } from '../providerError.js';
import { bridgeServerName, createBridge, type BridgedCall } from './claudeCodeBridge.js';
import { ClaudeCodeConversation, classify, nativeCallLine } from './claudeCodeConversation.js';
import { claudeCodeOptions } from './claudeCodeOptions.js';
import { loadClaudeSdk, type ClaudeSdk } from './claudeCodeSdk.js';
import { realFolder, spawnContained } from './claudeCodeSpawn.js';
import { onPath, usableBubblewrap } from './cliBinaries.js';
import { folderNote, refusedEditsNote, renderConversation, unsandboxedNote } from './conversationText.js';
import { decideNativeTool } from './nativeToolPolicy.js';
import { WorkingFolder } from './workingFolder.js';

export interface ClaudeCodeModelOptions {
	/** The host environment (PATH, HOME, the CLI's config folder, `ANTHROPIC_API_KEY`). */
	readonly env: Readonly<Record<string, string | undefined>>;
}

/** Where a conversation runs: the overlay it shows, its folder, and the sandbox binary (if any). */
interface Place {
	readonly overlay: Overlay;
	readonly dir: string;
	readonly folder: WorkingFolder;
	readonly bwrap: string | undefined;
}

interface Session {
	readonly conversation: ClaudeCodeConversation;
	readonly overlay: Overlay;
	readonly system: string;
	readonly first: ChatMessage | undefined;
	/** How many of the request's messages the CLI has, counting the assistant message of our last call. */
	covered: number;
	lastCallIds: readonly string[];
	offered: ReadonlySet<string>;
	/** Our `write_file` / `delete_file` call ids → path, for the last call. */
	readonly edits: Map<string, string>;
	/** Bridged calls handed to the runtime, waiting for its result. */
	readonly waiting: Map<string, BridgedCall>;
}

export class ClaudeCodeModel implements ChatModel {
	readonly provider = 'claude_code';
	readonly modelId: string;
	readonly capabilities = { tools: true, reasoning: true } as const;
	private readonly label = `claude-${randomUUID().slice(0, 8)}`;
	private readonly coding: CodingAgentSettings;
	private folder: WorkingFolder | undefined;
	private session: Session | undefined;
	private ids = 0;
	private bwrap: Promise<string | undefined> | undefined;
	private toldUnsandboxed = false;

	constructor(
		private readonly settings: BackendSettings,
		private readonly options: ClaudeCodeModelOptions,
	) {
		this.modelId = settings.model;
		this.coding = (settings.options['coding_agent'] ?? {}) as CodingAgentSettings;
	}

	async prepare(): Promise<void> {
		await loadClaudeSdk().catch(() => undefined);
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
			this.endSession();
			throw ProviderError.is(failure) ? failure : classify(failure);
		}
	}

	async close(): Promise<void> {
		this.endSession();
		await this.folder?.dispose();
		this.folder = undefined;
	}

	private async call(
		request: ChatRequest,
		signal: AbortSignal,
		emit: (event: ModelEvent) => void,
	): Promise<void> {
		const overlay = request.overlay;
		if (overlay === undefined) {
			throw new ProviderError({
				provider: this.provider,
				kind: 'unavailable',
				retryable: false,
				message: 'type claude_code: this call has no overlay to lay out the agent folder from',
			});
		}
		if (signal.aborted) {
			throw new ProviderError({ provider: this.provider, kind: 'aborted', message: 'aborted' });
		}
		const sdk = await loadClaudeSdk();
		const bwrap = await (this.bwrap ??= usableBubblewrap(this.options.env));
		const folder = (this.folder ??= new WorkingFolder(overlay.workspace.root, this.label, overlay));
		const offered = new Set(request.tools.map((tool) => tool.name));
		let session = this.session;
		if (session !== undefined && this.continues(session, request)) {
			if (!(await this.resume(session, request, overlay, folder))) {
				emit({ type: 'finish', reason: 'stop' });
				session.covered = request.messages.length + 1;
				session.lastCallIds = [];
				return;
			}
		} else {
			this.endSession();
			const dir = await folder.prepare(overlay);
			session = this.open(sdk, request, { overlay, dir, folder, bwrap });
			session.conversation.send(renderConversation(request.messages));
			if (bwrap === undefined && !this.toldUnsandboxed) {
				this.toldUnsandboxed = true;
				emit({ type: 'reasoning-delta', text: `${unsandboxedNote}\n` });
			}
		}
		session.offered = offered;
		session.conversation.bridge.offer(offered);
		const outcome = await session.conversation.turn(emit, signal);
		const calls: ToolCall[] = [];
		const diff = await folder.diff();
		for (const edit of diff.edits) {
			const id = `cc_edit_${++this.ids}`;
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
		const results: [BridgedCall, string, boolean][] = [];
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
		const note = refusedEditsNote(refusals);
		for (const [index, [call, text, isError]] of results.entries()) {
			session.waiting.delete(call.id);
			call.answer(index === 0 && note ? `${text}\n\n${note}` : text, isError);
		}
		const prompt = [results.length > 0 ? '' : note, ...texts].filter(Boolean).join('\n\n');
		if (prompt) session.conversation.send(prompt);
		return results.length > 0 || prompt !== '';
	}

	private open(sdk: ClaudeSdk, request: ChatRequest, place: Place): Session {
		const { overlay, dir, folder, bwrap } = place;
		const bridge = createBridge(sdk, request.tools, () => `cc_call_${++this.ids}`);
		const conversation = new ClaudeCodeConversation(bridge);
		const session: Session = {
			conversation,
			overlay,
			system: request.system,
			first: request.messages[0],
			covered: 0,
			lastCallIds: [],
			offered: new Set(),
			edits: new Map(),
			waiting: new Map(),
		};
		const env = this.options.env;
		const apiKey = this.settings.apiKey ?? env['ANTHROPIC_API_KEY'];
		const home = folder.homeDir!;
		// With a key the CLI needs nothing of the user's; without one, its login in its config folder.
		const configDir =
			apiKey === undefined
				? (env['CLAUDE_CONFIG_DIR'] ?? join(env['HOME'] ?? home, '.claude'))
				: join(home, '.claude');
		const cliPath = this.coding.cli_path ?? onPath('claude', env['PATH']);
		const options = claudeCodeOptions({
			settings: { ...this.coding, ...(cliPath === undefined ? {} : { cli_path: cliPath }) },
			model: this.settings.model,
			...(apiKey === undefined ? {} : { apiKey }),
			...(this.settings.baseUrl === undefined ? {} : { baseUrl: this.settings.baseUrl }),
			hostEnv: { ...env, HOME: home, CLAUDE_CONFIG_DIR: configDir, ...(bwrap ? { TMPDIR: '/tmp' } : {}) },
			cwd: dir,
			systemPrompt: `${request.system}\n\n${folderNote(dir)}`,
			mcpServers: { [bridgeServerName]: bridge.server },
			canUseTool: async (name, input) => {
				const verdict = decideNativeTool(name, input, {
					folder: dir,
					offered: session.offered,
					server: bridgeServerName,
				});
				const line = nativeCallLine(name, input, verdict.allow ? 'allowed' : `refused: ${verdict.reason}`);
				if (line) conversation.emit?.({ type: 'reasoning-delta', text: line });
				return verdict.allow
					? { behavior: 'allow', updatedInput: input }
					: { behavior: 'deny', message: verdict.reason };
			},
			abortController: new AbortController(),
		});
		const containment = {
			bwrap,
			folder: dir,
			home,
			configDir,
			dependencyMounts: folder.dependencyMounts,
			hidden: [realFolder(overlay.workspace.root)],
		};
		conversation.start(
			sdk.query({
				prompt: conversation.input,
				options: {
					...options,
					env: { ...options.env, MASSGEN_CODING_AGENT: this.label },
					spawnClaudeCodeProcess: (spec) =>
						spawnContained(spec, containment, (child) => conversation.adopt(child)),
				},
			}),
		);
		this.session = session;
		return session;
	}

	private endSession(): void {
		this.session?.conversation.close();
		this.session = undefined;
	}
}
