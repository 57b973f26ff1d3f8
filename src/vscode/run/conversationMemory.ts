import type { Turn } from '../../core/orchestrator/types.js';
import type { RunRequest } from './runTypes.js';

/**
 * The window's last answered ask: the run `continueConversation` alone continues and its thread.
 * Memory only; a follow-up names its run and reads its history back from the run directories,
 * so a window reload loses nothing but this default.
 */
export class ConversationMemory {
	private _lastAsked: string | undefined;
	private _conversation: readonly Turn[] = [];

	/** The last answered ask's thread as its run was given it, plus that turn; oldest first. */
	get conversation(): readonly Turn[] {
		return this._conversation;
	}

	/** The run a request follows up on: the one it names, else the last answered ask when asked to continue. */
	followedRun(request: RunRequest): string | undefined {
		return request.continueFrom ?? (request.continueConversation ? this._lastAsked : undefined);
	}

	/** A fresh ask (no follow-up) starts a new conversation. */
	forget(): void {
		this._lastAsked = undefined;
		this._conversation = [];
	}

	/** An answered ask: the next `continueConversation` continues `runId`. */
	remember(runId: string, history: readonly Turn[], turn: Turn): void {
		this._lastAsked = runId;
		this._conversation = [...history, turn];
	}
}
