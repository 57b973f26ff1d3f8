/**
 * A `claude_code` agent as a `ChatModel` (docs/coding-agents.md). Each `stream()` call is one turn of the
 * Claude Code CLI, which runs its own agent loop in the agent's private folder (`WorkingFolder`)
 * with our system prompt. A call that continues the last (same overlay and system prompt, its
 * messages extending what the CLI saw) goes on in the same CLI session with only what was added;
 * any other starts a new one. At the end of a turn the folder's changes come out as `write_file`
 * / `delete_file` calls, before the bridged call (a workflow tool, `run_command`, …) that ended it,
 * so the runtime applies them to the overlay through the guarded toolbox first.
 */
import { randomUUID } from 'node:crypto';
import type { HookInput, HookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import { join } from 'node:path';
import type { CodingAgentSettings } from '../spec/codingAgentTypes.js';
import type { Overlay } from '../../workspace/types.js';
import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatModel, ChatRequest, ModelEvent } from '../spec/model.js';
import { ProviderError } from '../spec/providerError.js';
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
import { bridgeServerName, createBridge } from './claudeCodeBridge.js';
import { ClaudeCodeConversation, classify, nativeCallLine } from './claudeCodeConversation.js';
import { claudeCodeOptions } from './claudeCodeOptions.js';
import { loadClaudeSdk, type ClaudeSdk } from './claudeCodeSdk.js';
import { realFolder } from './cliSandbox.js';
import { spawnContained } from './claudeCodeSpawn.js';
import { onPath, usableBubblewrap } from './cliBinaries.js';
import { folderNote, refusedEditsNote, renderConversation, unsandboxedNote } from './conversationText.js';
import { decideNativeTool, type NativeVerdict } from './nativeToolPolicy.js';
import { WorkingFolder } from './workingFolder.js';

export interface ClaudeCodeModelOptions {
	/** The host environment (PATH, HOME, the CLI's config folder, `ANTHROPIC_API_KEY`). */
	readonly env: Readonly<Record<string, string | undefined>>;
	/** The host's path to the CLI (`HostPaths.codingAgents`), used when the config has no `cli_path`. */
	readonly cliPath?: string;
}

/** Where a conversation runs: the overlay it shows, its folder, and the sandbox binary (if any). */
interface Place {
	readonly overlay: Overlay;
	readonly dir: string;
	readonly folder: WorkingFolder;
	readonly bwrap: string | undefined;
}

interface Session extends TurnLedger<BridgedCall> {
	readonly conversation: ClaudeCodeConversation;
	offered: ReadonlySet<string>;
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

	stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
		return streamCall(
			(emit) => this.call(request, signal, emit),
			(failure) => {
				this.endSession();
				return ProviderError.is(failure) ? failure : classify(failure);
			},
		);
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
		const overlay = overlayOf(request, this.provider);
		if (signal.aborted) {
			throw new ProviderError({ provider: this.provider, kind: 'aborted', message: 'aborted' });
		}
		const sdk = await loadClaudeSdk();
		const bwrap = await (this.bwrap ??= usableBubblewrap(this.options.env));
		const folder = (this.folder ??= new WorkingFolder(overlay.workspace.root, this.label, overlay));
		const offered = new Set(request.tools.map((tool) => tool.name));
		let session = this.session;
		if (session !== undefined && continues(session, request)) {
			if (!(await this.resume(session, request, folder))) return endIdle(session, request, emit);
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
		await endTurn(session, request, folder, outcome.calls, emit, () => `cc_edit_${++this.ids}`);
	}

	/** Hands the runtime's results and messages to the CLI; false when there is nothing for it to do. */
	private async resume(session: Session, request: ChatRequest, folder: WorkingFolder): Promise<boolean> {
		const { results, refusals, texts } = await collectReturns(session, request, folder);
		const note = refusedEditsNote(refusals);
		for (const [index, [call, text, isError]] of results.entries()) {
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
			...newLedger<BridgedCall>(request, overlay),
			conversation,
			offered: new Set(),
		};
		const env = this.options.env;
		const apiKey = this.settings.apiKey ?? env['ANTHROPIC_API_KEY'];
		const home = folder.homeDir!;
		// With a key the CLI needs nothing of the user's; without one, its login in its config folder.
		const configDir =
			apiKey === undefined
				? (env['CLAUDE_CONFIG_DIR'] ?? join(env['HOME'] ?? home, '.claude'))
				: join(home, '.claude');
		const cliPath = this.coding.cli_path ?? this.options.cliPath ?? onPath('claude', env['PATH']);
		const decide = (name: string, input: Record<string, unknown>) =>
			decideNativeTool(name, input, {
				folder: dir,
				offered: session.offered,
				server: bridgeServerName,
				secrets: overlay.workspace.secretPaths,
				linkedInodes: folder.linkedInodes,
				dependencyMounts: folder.dependencyMounts,
			});
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
				const verdict = decide(name, input);
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
			hostHome: env['HOME'],
			path: env['PATH'],
		};
		conversation.start(
			sdk.query({
				prompt: conversation.input,
				options: {
					...options,
					env: { ...options.env, MASSGEN_CODING_AGENT: this.label },
					// The CLI reads inside its folder without asking (canUseTool is not called): every call is checked here first.
					hooks: {
						PreToolUse: [{ hooks: [(input) => Promise.resolve(preToolUse(input, decide, conversation))] }],
					},
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

/** Refuses a native call `decide` refuses (a secret path in the folder), before the CLI's own permission check. */
function preToolUse(
	input: HookInput,
	decide: (name: string, input: Record<string, unknown>) => NativeVerdict,
	conversation: ClaudeCodeConversation,
): HookJSONOutput {
	if (input.hook_event_name !== 'PreToolUse') return {};
	const args = (input.tool_input ?? {}) as Record<string, unknown>;
	const verdict = decide(input.tool_name, args);
	if (verdict.allow) return {};
	const line = nativeCallLine(input.tool_name, args, `refused: ${verdict.reason}`);
	if (line) conversation.emit?.({ type: 'reasoning-delta', text: line });
	return {
		hookSpecificOutput: {
			hookEventName: 'PreToolUse',
			permissionDecision: 'deny',
			permissionDecisionReason: verdict.reason,
		},
	};
}
