/**
 * The grid of agent lanes, keyed by config id. Only lanes whose data changed are updated, and the
 * follow-the-end scrolling runs after every DOM write of the frame (one layout, not one per lane).
 */
import type { WebviewMessage } from '../../src/protocol/messages.js';
import type { RunState } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { LaneView, type LaneExtras } from './lane.js';

export class LanesView {
	readonly element: HTMLDivElement;
	private readonly _lanes = new Map<string, LaneView>();
	private _order: readonly string[] = [];
	private _runId: string | null = null;
	/** Approval requests whose agent's lane was expanded (once each: the user may collapse it again). */
	private readonly _expandedFor = new Set<string>();

	constructor(
		private readonly _viewState: ViewStateStore,
		private readonly _post: (message: WebviewMessage) => void,
		/** A lane's "Message" button: the message box is for that agent. */
		private readonly _messageAgent: (agentId: string) => void,
	) {
		this.element = document.createElement('div');
		this.element.className = 'lanes';
	}

	update(state: RunState): void {
		if (state.runId !== this._runId) {
			this._runId = state.runId;
			this._lanes.clear();
			this.element.replaceChildren();
			this._order = [];
		}
		if (state.agentOrder !== this._order) this._syncOrder(state.agentOrder);
		const scroll: LaneView[] = [];
		const coordinating = state.status === 'running' && state.winner === null && state.presenter === null;
		for (const agentId of state.agentOrder) {
			const lane = Object.hasOwn(state.agents, agentId) ? state.agents[agentId] : undefined;
			const view = this._lanes.get(agentId);
			if (!lane || !view) continue;
			const extras: LaneExtras = {
				isWinner: state.winner?.agentId === agentId,
				isPresenter: state.presenter === agentId,
				votesReceived: Object.hasOwn(state.tally, agentId) ? (state.tally[agentId] ?? 0) : 0,
				// Only during coordination (no winner yet): the host ignores it later anyway.
				stoppable: coordinating && lane.state !== 'killed' && lane.state !== 'done',
				// A message reaches an agent at its next call: while the run goes and the agent is in it.
				messageable: state.status === 'running' && lane.state !== 'killed',
				running: state.status === 'running',
			};
			if (view.update(lane, extras)) scroll.push(view);
		}
		for (const view of scroll) view.scrollToEnd();
		// A request waiting for approval is about a tool call in its agent's lane: show it.
		for (const approval of state.approvals) {
			if (approval.decision !== null || this._expandedFor.has(approval.requestId)) continue;
			this._expandedFor.add(approval.requestId);
			this._lanes.get(approval.agentId)?.expand();
		}
	}

	private _syncOrder(order: readonly string[]): void {
		this._order = order;
		const wanted = new Set(order);
		for (const [id, view] of this._lanes) {
			if (wanted.has(id)) continue;
			view.element.remove();
			this._lanes.delete(id);
		}
		let previous: Element | null = null;
		for (const id of order) {
			let view = this._lanes.get(id);
			if (!view) {
				view = new LaneView(id, this._runId, this._viewState, this._post, this._messageAgent);
				this._lanes.set(id, view);
			}
			const expected: Element | null = previous
				? previous.nextElementSibling
				: this.element.firstElementChild;
			if (expected !== view.element) this.element.insertBefore(view.element, expected);
			previous = view.element;
		}
	}
}
