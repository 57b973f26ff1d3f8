/**
 * Approval cards: a risky tool call waits for the user (allow once / for this run / always /
 * deny with an optional note). Decided requests collapse into a one-line history.
 */
import type { ApprovalDecision, WebviewMessage } from '../../src/protocol/messages.js';
import type { ApprovalView, RunState } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { collapsible } from './collapsible.js';
import { button, h, icon, setDisabled, setHidden, setText } from './dom.js';
import { formatDuration } from './format.js';

export class ApprovalsView {
	readonly element: HTMLElement;
	private readonly _pending: HTMLDivElement;
	private readonly _decided: HTMLUListElement;
	private readonly _decidedGroup: HTMLDetailsElement;
	private readonly _decidedCount: HTMLSpanElement;
	private readonly _title: HTMLHeadingElement;
	private readonly _cards = new Map<string, { card: HTMLElement; view: ApprovalView; buttons: HTMLElement[] }>();
	/** Requests answered here and not yet confirmed by an `approval-result`. */
	private readonly _sent = new Set<string>();
	private _approvals: readonly ApprovalView[] | null = null;

	constructor(
		private readonly _post: (message: WebviewMessage) => void,
		private readonly _announce: (text: string) => void,
		viewState: ViewStateStore,
	) {
		this._title = h('h2', { attrs: { id: 'approvals-heading' } });
		this._pending = h('div', { class: 'approval-cards' });
		this._decided = h('ul', { class: 'approval-history' });
		this._decidedCount = h('span', { class: 'count' });
		const decided = collapsible({
			key: 'section:approvals-decided',
			defaultOpen: false,
			viewState,
			class: 'approvals-decided',
			summary: [h('span', { text: 'Decided' }), this._decidedCount],
		});
		decided.body.append(this._decided);
		this._decidedGroup = decided.details;
		this.element = h(
			'section',
			{ class: 'panel-section approvals', attrs: { 'aria-labelledby': 'approvals-heading' } },
			this._title,
			this._pending,
			this._decidedGroup,
		);
		this.element.hidden = true;
	}

	/** Requests waiting for a decision (the panel shows the section first while there are any). */
	get pendingCount(): number {
		return this._cards.size;
	}

	/** A new snapshot: forget what was sent (the host's state is the truth). */
	reset(): void {
		this._sent.clear();
		this._cards.clear();
		this._pending.replaceChildren();
		this._approvals = null;
	}

	update(state: RunState): void {
		if (state.approvals === this._approvals) return;
		this._approvals = state.approvals;
		const pending = state.approvals.filter((a) => a.decision === null);
		const decided = state.approvals.filter((a) => a.decision !== null);
		setHidden(this.element, state.approvals.length === 0);
		setText(this._title, pending.length > 0 ? `Waiting for your approval (${pending.length})` : 'Approvals');
		this.element.classList.toggle('has-pending', pending.length > 0);
		setHidden(this._decidedGroup, decided.length === 0);
		setText(this._decidedCount, String(decided.length));
		const keep = new Set(pending.map((a) => a.requestId));
		for (const [id, entry] of this._cards) {
			if (keep.has(id)) continue;
			entry.card.remove();
			this._cards.delete(id);
			this._sent.delete(id);
		}
		for (const approval of pending) {
			if (this._cards.has(approval.requestId)) continue;
			const entry = this._card(approval);
			this._cards.set(approval.requestId, entry);
			this._pending.append(entry.card);
			this._announce(`Approval needed: ${approval.agentId} wants to ${approval.action} ${approval.target}`);
		}
		this._decided.replaceChildren(
			...decided.map((a) =>
				h(
					'li',
					{ class: `decided decided-${a.decision}` },
					icon(a.decision === 'allow' ? 'check' : 'circle-slash'),
					h('span', { text: `${a.agentId}: ${a.action} ${a.target}` }),
					h('span', { class: 'decided-by', text: `${a.decision === 'allow' ? 'allowed' : 'denied'}${a.by ? ` by ${a.by}` : ''}` }),
				),
			),
		);
	}

	private _card(approval: ApprovalView) {
		const note = document.createElement('vscode-textfield');
		note.setAttribute('placeholder', 'Note for the agent (optional, sent with Deny)');
		note.setAttribute('aria-label', 'Note for the agent');
		note.className = 'approval-note';
		const decide = (decision: ApprovalDecision) => {
			if (this._sent.has(approval.requestId)) return;
			this._sent.add(approval.requestId);
			const text = (note as unknown as { value?: string }).value?.trim() ?? '';
			this._post({
				type: 'approval',
				requestId: approval.requestId,
				decision,
				...(decision === 'deny' && text ? { note: text.slice(0, 2_000) } : {}),
			});
			for (const b of buttons) setDisabled(b, true);
			card.classList.add('is-sent');
		};
		const what = `${approval.action} ${approval.target}`;
		const buttons = [
			button('Allow once', () => decide('allow-once'), { icon: 'check', ariaLabel: `Allow once: ${what}` }),
			button('Allow for this run', () => decide('allow-run'), { secondary: true, ariaLabel: `Allow for this run: ${what}` }),
			button('Always allow', () => decide('always'), { secondary: true, ariaLabel: `Always allow: ${what}` }),
			button('Deny', () => decide('deny'), { icon: 'circle-slash', secondary: true, ariaLabel: `Deny: ${what}` }),
		];
		const card = h(
			'article',
			{ class: 'approval-card', attrs: { 'aria-label': `Approval request from ${approval.agentId}` } },
			h(
				'div',
				{ class: 'approval-head' },
				icon('shield'),
				h('strong', { text: approval.agentId }),
				h('span', { text: ' wants to ' }),
				h('code', { class: 'approval-action', text: approval.action }),
				h('span', { class: 'approval-time', text: formatDuration(approval.t) }),
			),
			h('pre', { class: 'approval-target', text: approval.target }),
			approval.reason ? h('p', { class: 'approval-reason', text: approval.reason }) : null,
			h('div', { class: 'approval-actions' }, ...buttons),
			note,
		);
		card.dataset['request'] = approval.requestId;
		return { card, view: approval, buttons };
	}
}
