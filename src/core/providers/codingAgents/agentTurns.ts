/**
 * What the coding-agent adapters share (docs/coding-agents.md): a `stream()` that runs one call and surfaces
 * its events, the bookkeeping that tells whether a request continues the CLI's conversation, and a
 * turn's end as tool calls: the folder's edits first, then the bridged calls that ended it, so the
 * runtime applies the edits through the guarded toolbox before anything else.
 */
import { EventQueue } from '../../util/eventQueue.js';
import type { Overlay } from '../../workspace/types.js';
import type { ChatMessage, ChatRequest, ModelEvent, ToolCall } from '../spec/model.js';
import { ProviderError } from '../spec/providerError.js';
import type { WorkingFolder } from './workingFolder.js';

/** One of our tools the CLI called; it waits in its handler until `answer`. */
export interface BridgedCall {
	readonly id: string;
	readonly name: string;
	readonly args: Record<string, unknown>;
	readonly answer: (text: string, isError: boolean) => void;
}

/** A conversation's state across calls. */
export interface TurnLedger<C extends BridgedCall> {
	readonly overlay: Overlay;
	readonly system: string;
	readonly first: ChatMessage | undefined;
	/** How many of the request's messages the CLI has, counting the assistant message of our last call. */
	covered: number;
	lastCallIds: readonly string[];
	/** Our `write_file` / `delete_file` call ids → path, for the last call. */
	readonly edits: Map<string, string>;
	/** Bridged calls handed to the runtime, waiting for its result. */
	readonly waiting: Map<string, C>;
}

export function newLedger<C extends BridgedCall>(request: ChatRequest, overlay: Overlay): TurnLedger<C> {
	return {
		overlay,
		system: request.system,
		first: request.messages[0],
		covered: 0,
		lastCallIds: [],
		edits: new Map(),
		waiting: new Map(),
	};
}

/** The overlay the call's folder is laid out from; a call without one cannot run a coding agent. */
export function overlayOf(request: ChatRequest, provider: string): Overlay {
	if (request.overlay !== undefined) return request.overlay;
	throw new ProviderError({
		provider,
		kind: 'unavailable',
		retryable: false,
		message: `type ${provider}: this call has no overlay to lay out the agent folder from`,
	});
}

/** Runs `call`, yielding what it emits; a failure ends the stream as a `ProviderError` (`classify`). */
export async function* streamCall(
	call: (emit: (event: ModelEvent) => void) => Promise<void>,
	onFailure: (error: unknown) => Promise<ProviderError> | ProviderError,
): AsyncIterable<ModelEvent> {
	const queue = new EventQueue<ModelEvent>();
	let failure: unknown;
	const work = call((event) => queue.push(event)).then(
		() => queue.close(),
		(error: unknown) => {
			failure = error;
			queue.close();
		},
	);
	for await (const event of queue) yield event;
	await work;
	if (failure !== undefined) throw await onFailure(failure);
}

/** Whether `request` goes on from the ledger's last call (same overlay, prompt and first message, our call ids echoed). */
export function continues<C extends BridgedCall>(ledger: TurnLedger<C>, request: ChatRequest): boolean {
	if (request.overlay !== ledger.overlay || request.system !== ledger.system) return false;
	if (request.messages.length <= ledger.covered || request.messages[0] !== ledger.first) return false;
	const ours = request.messages[ledger.covered - 1];
	if (ours?.role !== 'assistant') return false;
	const ids = (ours.toolCalls ?? []).map((call) => call.id);
	return ids.length === ledger.lastCallIds.length && ids.every((id, i) => id === ledger.lastCallIds[i]);
}

/** What the runtime added since the last call: the bridged calls' results, refused edits, new user text. */
export interface Returns<C extends BridgedCall> {
	readonly results: readonly (readonly [C, string, boolean])[];
	readonly refusals: readonly { readonly path: string; readonly reason: string }[];
	readonly texts: readonly string[];
}

/**
 * Reads the runtime's additions; a refused edit is put back in the folder, which is then brought
 * up to the overlay (the runtime may have changed it).
 */
export async function collectReturns<C extends BridgedCall>(
	ledger: TurnLedger<C>,
	request: ChatRequest,
	folder: WorkingFolder,
): Promise<Returns<C>> {
	const refusals: { path: string; reason: string }[] = [];
	const results: [C, string, boolean][] = [];
	const texts: string[] = [];
	for (const message of request.messages.slice(ledger.covered)) {
		if (message.role === 'user') texts.push(message.content);
		if (message.role !== 'tool') continue;
		const path = ledger.edits.get(message.toolCallId);
		if (path !== undefined) {
			if (message.isError) {
				await folder.revert(path, ledger.overlay);
				refusals.push({ path, reason: message.content });
			}
			continue;
		}
		const call = ledger.waiting.get(message.toolCallId);
		if (call !== undefined) results.push([call, message.content, message.isError === true]);
	}
	ledger.edits.clear();
	await folder.prepare(ledger.overlay);
	for (const [call] of results) ledger.waiting.delete(call.id);
	return { results, refusals, texts };
}

/** A call with nothing for the CLI to do ends at once. */
export function endIdle<C extends BridgedCall>(
	ledger: TurnLedger<C>,
	request: ChatRequest,
	emit: (event: ModelEvent) => void,
): void {
	emit({ type: 'finish', reason: 'stop' });
	ledger.covered = request.messages.length + 1;
	ledger.lastCallIds = [];
}

/** Ends a turn: the folder's edits as `write_file` / `delete_file` calls, then the bridged calls. */
export async function endTurn<C extends BridgedCall>(
	ledger: TurnLedger<C>,
	request: ChatRequest,
	folder: WorkingFolder,
	bridged: readonly C[],
	emit: (event: ModelEvent) => void,
	editId: () => string,
): Promise<void> {
	const calls: ToolCall[] = [];
	const diff = await folder.diff();
	for (const edit of diff.edits) {
		const id = editId();
		ledger.edits.set(id, edit.path);
		calls.push(
			edit.content === null
				? { id, name: 'delete_file', arguments: { path: edit.path }, madeInFolder: true }
				: {
						id,
						name: 'write_file',
						arguments: { path: edit.path, content: edit.content },
						madeInFolder: true,
					},
		);
	}
	if (diff.skipped.length > 0) {
		emit({
			type: 'reasoning-delta',
			text: `\n(not text, left out of the answer: ${diff.skipped.join(', ')})\n`,
		});
	}
	for (const call of bridged) {
		ledger.waiting.set(call.id, call);
		calls.push({ id: call.id, name: call.name, arguments: call.args });
	}
	for (const call of calls) emit({ type: 'tool-call', call });
	emit({ type: 'finish', reason: calls.length > 0 ? 'tool-calls' : 'stop' });
	ledger.covered = request.messages.length + 1;
	ledger.lastCallIds = calls.map((call) => call.id);
}
