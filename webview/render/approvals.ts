/**
 * Approval cards: a risky tool call waits for the user (allow once / for this run / always /
 * deny with an optional note). A pending card sits in the lane of the agent that asked (a request
 * several agents share is deduped by the core and belongs to the first one's lane); the section at
 * the top of the panel keeps a one-line summary with a button per card that scrolls to it.
 * Decided requests collapse into a one-line history.
 */
import { t, tc } from '../strings.js';
import type { ApprovalDecision, WebviewMessage } from '../../src/protocol/messages.js';
import type { ApprovalView, RunState } from '../../src/protocol/runState.js';
import { visibleCommand } from '../../src/protocol/visibleText.js';
import type { ViewStateStore } from '../viewState.js';
import { collapsible } from './collapsible.js';
import { button, h, icon, setDisabled, setHidden, setText } from './dom.js';
import { formatDuration } from './format.js';

export class ApprovalsView {
	readonly element: HTMLElement;
	/** Holds a card only while its lane does not exist yet (nothing is lost). */
	private readonly _pending: HTMLDivElement;
	private readonly _jumps: HTMLDivElement;
	private readonly _decided: HTMLUListElement;
	private readonly _decidedGroup: HTMLDetailsElement;
	private readonly _decidedCount: HTMLSpanElement;
	private readonly _title: HTMLHeadingElement;
	private readonly _cards = new Map<
		string,
		{ card: HTMLElement; view: ApprovalView; buttons: HTMLElement[] }
	>();
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
		this._jumps = h('div', { class: 'approval-jumps' });
		this._decided = h('ul', { class: 'approval-history' });
		this._decidedCount = h('span', { class: 'count' });
		const decided = collapsible({
			key: 'section:approvals-decided',
			defaultOpen: false,
			viewState,
			class: 'approvals-decided',
			summary: [h('span', { text: t('decided') }), this._decidedCount],
		});
		decided.body.append(this._decided);
		this._decidedGroup = decided.details;
		this.element = h(
			'section',
			{ class: 'panel-section approvals', attrs: { 'aria-labelledby': 'approvals-heading' } },
			h('div', { class: 'approvals-summary' }, this._title, this._jumps),
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
		for (const { card } of this._cards.values()) card.remove();
		this._cards.clear();
		this._pending.replaceChildren();
		this._jumps.replaceChildren();
		this._approvals = null;
	}

	update(state: RunState): void {
		if (state.approvals === this._approvals) {
			this._place();
			return;
		}
		this._approvals = state.approvals;
		const pending = state.approvals.filter((a) => a.decision === null);
		const decided = state.approvals.filter((a) => a.decision !== null);
		setHidden(this.element, state.approvals.length === 0);
		setText(this._title, pending.length > 0 ? pendingSummary(pending) : t('approvals'));
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
			this._announce(t('approvalNeededWantsTo', approval.agentId, describe(approval)));
		}
		this._jumps.replaceChildren(
			...pending.map((a) =>
				button(pending.length === 1 ? t('show') : t('showS', a.agentId), () => this._reveal(a.requestId), {
					icon: 'arrow-down',
					secondary: true,
					class: 'approval-jump',
					ariaLabel: t('showTheRequestIn', a.agentId, describe(a)),
				}),
			),
		);
		this._place();
		// The lanes are drawn after this section in the same frame: place new cards once they exist.
		if (this._pending.childElementCount > 0) queueMicrotask(() => this._place());
		this._decided.replaceChildren(
			...decided.map((a) =>
				h(
					'li',
					{ class: `decided decided-${a.decision}` },
					icon(a.decision === 'allow' ? 'check' : 'circle-slash'),
					h('span', { text: `${a.agentId}: ${describe(a)}` }),
					h('span', {
						class: 'decided-by',
						text: `${a.decision === 'allow' ? t('allowed') : t('denied')}${a.by ? t('by', a.by) : ''}`,
					}),
				),
			),
		);
	}

	private _card(approval: ApprovalView) {
		const note = document.createElement('vscode-textfield');
		note.setAttribute('placeholder', t('noteForTheAgent'));
		note.setAttribute('aria-label', t('noteForTheAgent2'));
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
		const what = describe(approval);
		const buttons = [
			button(t('allowOnce'), () => decide('allow-once'), { icon: 'check', ariaLabel: t('allowOnce2', what) }),
			button(t('allowForThisRun'), () => decide('allow-run'), {
				secondary: true,
				ariaLabel: t('allowForThisRun2', what),
			}),
			button(t('alwaysAllow'), () => decide('always'), {
				secondary: true,
				ariaLabel: t('alwaysAllow2', what),
			}),
			button(t('deny'), () => decide('deny'), {
				icon: 'circle-slash',
				secondary: true,
				ariaLabel: t('deny2', what),
			}),
		];
		const card = h(
			'article',
			{
				class: 'approval-card',
				attrs: { 'aria-label': t('approvalRequestWantsTo', approval.agentId, what), tabindex: '-1' },
			},
			h(
				'div',
				{ class: 'approval-head' },
				icon('shield'),
				h('strong', { text: approval.agentId }),
				h('span', { text: t('wantsTo') }),
				h('span', { class: 'approval-action', text: actionVerb(approval.action), title: approval.action }),
				h('span', { class: 'approval-time', text: formatDuration(approval.t) }),
			),
			// Whole, with every control and bidi or invisible character visible (Trojan Source).
			h('pre', { class: 'approval-target', text: visibleCommand(approval.target) }),
			approval.reason ? h('p', { class: 'approval-reason', text: approval.reason }) : null,
			h('div', { class: 'approval-actions' }, ...buttons),
			note,
		);
		card.dataset['request'] = approval.requestId;
		card.dataset['agent'] = approval.agentId;
		return { card, view: approval, buttons };
	}

	/** Moves each pending card into its agent's lane (drawn by the lanes view in the same panel). */
	private _place(): void {
		if (this._cards.size === 0) return;
		const root = this.element.parentElement;
		if (!root) return;
		for (const { card, view } of this._cards.values()) {
			const slot = root.querySelector<HTMLElement>(
				`section.lane[data-agent="${CSS.escape(view.agentId)}"] > .lane-approvals`,
			);
			const target = slot ?? this._pending;
			if (card.parentElement !== target) target.append(card);
		}
	}

	/** Opens what hides the card (the Agents section), scrolls it into view and focuses it. */
	private _reveal(requestId: string): void {
		this._place();
		const card = this._cards.get(requestId)?.card;
		if (!card) return;
		for (let node = card.parentElement; node; node = node.parentElement) {
			if (node instanceof HTMLDetailsElement && !node.open) node.open = true;
		}
		const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
		card.scrollIntoView({ block: 'center', behavior: reduce ? 'auto' : 'smooth' });
		card.focus({ preventScroll: true });
	}
}

/** `command` → run, `mcp` → use the tool, `read_url` → read; anything else reads as its name. */
export function actionVerb(action: string): string {
	switch (action) {
		case 'command':
			return 'run';
		case 'mcp':
			return t('useTheTool');
		case 'read_url':
			return 'read';
		default:
			return action;
	}
}

/** "run npm publish" (the exact target stays in the card's code block). */
function describe(approval: ApprovalView): string {
	return `${actionVerb(approval.action)} ${approval.target}`;
}

/** "1 approval waiting — in builder’s lane", "3 approvals waiting — in builder’s and critic’s lanes". */
function pendingSummary(pending: readonly ApprovalView[]): string {
	const agents = [...new Set(pending.map((a) => a.agentId))].map((id) => t('possessive', id));
	const names =
		agents.length <= 1 ? (agents[0] ?? '') : t('and', agents.slice(0, -1).join(', '), agents.at(-1) ?? '');
	return t(
		'approvalsWaitingIn',
		tc('approvalsWaiting', pending.length, pending.length),
		tc('inLanes', agents.length, names),
	);
}
