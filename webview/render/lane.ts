/**
 * One agent lane: its name (a button that expands and collapses it), state badge, pending approval
 * requests (the approvals view places its cards in `approvalSlot`) and errors; compact, one line
 * says what it is doing (the tool call running, else the last line of its output). Expanded: model
 * and role, counters, streamed text (following the end), reasoning (collapsed, only synced while
 * open), tool calls, answers and cost. Compact while the run goes on, expanded once it ended,
 * unless the user chose otherwise (remembered per agent). Updated in place; a lane whose data did
 * not change is not touched.
 */
import { t, tc } from '../strings.js';
import type { WebviewMessage } from '../../src/protocol/messages.js';
import type { AgentLane, LaneError } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { AnswersView } from './answers.js';
import { collapsible } from './collapsible.js';
import {
	button,
	h,
	icon,
	setClass,
	setData,
	setDisabled,
	setHidden,
	setText,
	setTitle,
	uniqueId,
} from './dom.js';
import { LaneMessages } from './laneMessages.js';
import { laneLook } from './laneState.js';
import { usage, usageTitle } from './laneUsage.js';
import { StreamText } from './streamText.js';
import { mainArgument, ToolCallsView } from './toolCalls.js';

/** Run-level facts a lane shows about itself. */
export interface LaneExtras {
	readonly isWinner: boolean;
	readonly isPresenter: boolean;
	readonly votesReceived: number;
	/** Coordination is going and this agent is in it: Stop agent is offered. */
	readonly stoppable: boolean;
	/** The run is going and this agent is in it: "Message" is offered. */
	readonly messageable: boolean;
	/** The run is going: lanes start compact. */
	readonly running: boolean;
}

export class LaneView {
	readonly element: HTMLElement;
	/** Where this agent's pending approval cards go (filled by the approvals view). */
	readonly approvalSlot: HTMLDivElement;
	private readonly _badge: HTMLSpanElement;
	private readonly _model: HTMLSpanElement;
	private readonly _name: HTMLSpanElement;
	private readonly _toggle: HTMLButtonElement;
	private readonly _peek: HTMLDivElement;
	private readonly _peekTool: HTMLSpanElement;
	private readonly _peekLine: HTMLSpanElement;
	private readonly _crown: HTMLSpanElement;
	private readonly _round: HTMLSpanElement;
	private readonly _counters: HTMLSpanElement;
	private readonly _usage: HTMLSpanElement;
	private readonly _alert: HTMLDivElement;
	private readonly _streamLabel: HTMLDivElement;
	private readonly _stream: StreamText;
	private readonly _reasoning: StreamText;
	private readonly _reasoningGroup: HTMLDetailsElement;
	private readonly _tools: ToolCallsView;
	private readonly _answers: AnswersView;
	private readonly _stop: HTMLElement;
	private readonly _message: HTMLElement;
	private readonly _messages: LaneMessages;
	private _lane: AgentLane | null = null;
	private _extras: LaneExtras | null = null;
	private _badgeState = '';
	private _alertKey = '';
	private _expanded: boolean | null = null;

	constructor(
		private readonly _agentId: string,
		/** The run this lane belongs to (a lane is made anew for another run: `LanesView`). */
		runId: string | null,
		private readonly _viewState: ViewStateStore,
		post: (message: WebviewMessage) => void,
		messageAgent: (agentId: string) => void,
	) {
		const agentId = _agentId;
		const viewState = _viewState;
		const headingId = uniqueId('lane');
		const bodyId = uniqueId('lane-body');
		// Disabled once pressed: the lane shows "stopped" when the host's agent-stopped event arrives.
		this._stop = button(
			t('stop'),
			() => {
				if (runId === null) return;
				setDisabled(this._stop, true);
				post({ type: 'stop-agent', runId, agentId });
			},
			{ icon: 'debug-stop', secondary: true, ariaLabel: t('stop2', agentId), class: 'stop-agent' },
		);
		// Its word goes in a narrow lane (a side bar), so the agent's name keeps the room (style.css).
		this._stop.replaceChildren(h('span', { class: 'stop-agent-label', text: t('stop') }));
		this._stop.title = t('stop2', agentId);
		this._stop.hidden = true;
		setTitle(this._stop, t('stopThisAgentIts'));
		this._message = button(t('messageAgent'), () => messageAgent(agentId), {
			icon: 'comment',
			secondary: true,
			ariaLabel: t('messageAgentAria', agentId),
			class: 'message-agent',
		});
		// Icon only in a narrow lane, as Stop (style.css); the accessible name stays.
		this._message.replaceChildren(h('span', { class: 'message-agent-label', text: t('messageAgent') }));
		setTitle(this._message, t('messageAgentAria', agentId));
		this._message.hidden = true;
		this._messages = new LaneMessages(agentId);
		this._badge = h('span', { class: 'state-badge' });
		this._model = h('span', { class: 'lane-model' });
		this._name = h('span', { class: 'lane-id', text: agentId });
		this._toggle = h(
			'button',
			{ class: 'lane-toggle', attrs: { type: 'button', 'aria-controls': bodyId } },
			icon('chevron-right', 'lane-twisty'),
			this._name,
		);
		this._toggle.addEventListener('click', () => {
			const open = !this._isExpanded();
			this._viewState.setOpen(this._laneKey, open);
			this._applyExpanded(open);
		});
		this._peekTool = h('span', { class: 'lane-peek-tool' });
		this._peekLine = h('span', { class: 'lane-peek-line' });
		this._peek = h('div', { class: 'lane-peek' }, this._peekTool, this._peekLine);
		this._crown = h(
			'span',
			{ class: 'lane-winner', title: t('winner') },
			icon('star-full'),
			h('span', { class: 'sr-only', text: t('winnerSr') }),
		);
		this._crown.hidden = true;
		this._round = h('span', { class: 'lane-round' });
		this._counters = h('span', { class: 'lane-counters' });
		this._usage = h('span', { class: 'lane-usage', attrs: { tabindex: '0' } });
		// The breakdown tooltip is built when asked for, not on every streamed frame.
		const describe = () => {
			if (this._lane) setTitle(this._usage, usageTitle(this._lane));
		};
		this._usage.addEventListener('mouseenter', describe);
		this._usage.addEventListener('focus', describe);
		this._alert = h('div', { class: 'lane-alert', attrs: { role: 'note' } });
		this._alert.hidden = true;
		this.approvalSlot = h('div', { class: 'lane-approvals' });

		this._stream = new StreamText(t('outputOf', agentId), 'lane-stream', (position) =>
			viewState.setScroll(`stream:${agentId}`, position),
		);
		this._streamLabel = h('div', { class: 'stream-label' });
		this._reasoning = new StreamText(t('reasoningOf', agentId), 'reasoning-stream');
		const reasoning = collapsible({
			key: `reasoning:${agentId}`,
			defaultOpen: false,
			viewState,
			class: 'lane-group lane-reasoning',
			summary: [h('span', { text: t('reasoning') })],
			onToggle: (open) => {
				if (!open || !this._lane) return;
				this._reasoning.update(this._lane.reasoning, this._lane.reasoningDropped);
				this._reasoning.scrollToEndIfFollowing();
			},
		});
		reasoning.body.append(this._reasoning.element);
		this._reasoningGroup = reasoning.details;
		this._reasoningGroup.hidden = true;
		this._tools = new ToolCallsView(agentId, viewState);
		this._answers = new AnswersView(agentId, viewState);

		const heading = h('h3', { class: 'lane-title', attrs: { id: headingId } }, this._toggle, this._crown);
		this.element = h(
			'section',
			{ class: 'lane', attrs: { 'aria-labelledby': headingId, role: 'region' } },
			h(
				'header',
				{ class: 'lane-head' },
				h('div', { class: 'lane-title-row' }, heading, this._badge, this._message, this._stop),
			),
			this._peek,
			this._messages.element,
			this._alert,
			this.approvalSlot,
			h(
				'div',
				{ class: 'lane-body', attrs: { id: bodyId } },
				this._model,
				h('div', { class: 'lane-stats' }, this._round, this._counters, this._usage),
				this._reasoningGroup,
				this._streamLabel,
				this._stream.element,
				this._tools.element,
				this._answers.element,
			),
		);
		this.element.dataset['agent'] = agentId;
		const saved = viewState.scroll(`stream:${agentId}`);
		if (saved !== undefined) requestAnimationFrame(() => this._stream.restore(saved));
	}

	/** Returns true when streamed text changed (the caller scrolls after all writes). */
	update(lane: AgentLane, extras: LaneExtras): boolean {
		const previous = this._lane;
		const extrasChanged = !sameExtras(this._extras, extras);
		if (previous === lane && !extrasChanged) return false;
		this._lane = lane;
		this._extras = extras;

		if (!previous || previous.state !== lane.state || previous.stopped !== lane.stopped) {
			this._renderBadge(lane);
		}
		setHidden(this._stop, !extras.stoppable);
		setHidden(this._message, !extras.messageable);
		this._messages.update(lane.userMessages);
		if (!extras.stoppable) setDisabled(this._stop, false);
		if (
			!previous ||
			previous.provider !== lane.provider ||
			previous.model !== lane.model ||
			previous.role !== lane.role
		) {
			// The model and role in words; the backend ("chatcompletion / …") only in the tooltip.
			const text = lane.role ? `${lane.model} · ${lane.role}` : lane.model;
			setText(this._model, text);
			setTitle(this._model, [lane.provider, lane.model].filter(Boolean).join(' / '));
		}
		// The anonymous id the other agents see ("agent2") reshuffles every run: only in the tooltip.
		setTitle(this._name, lane.anonId ? t('anonymousIdInPrompts', lane.anonId) : '');
		if (this._userExpanded() === null) this._applyExpanded(!extras.running);
		else if (this._expanded === null) this._applyExpanded(this._isExpanded());
		this._renderPeek(lane);
		setHidden(this._crown, !extras.isWinner);
		setClass(this.element, 'is-winner', extras.isWinner);
		setData(this.element, 'state', lane.state);

		setText(this._round, lane.round > 0 ? t('round2', lane.round) : t('notStarted'));
		setTitle(
			this._round,
			lane.snapshot.length > 0 ? t('sawAnswers', lane.snapshot.join(', ')) : t('sawNoAnswersYet'),
		);
		setText(this._counters, counters(lane, extras));
		setText(this._usage, usage(lane));
		this._renderAlert(lane);

		const presenting = lane.state === 'presenting' || (extras.isPresenter && lane.state === 'done');
		setText(
			this._streamLabel,
			presenting ? t('presentation') : lane.round > 0 ? t('outputRound', lane.round) : t('output'),
		);
		const showStream = lane.text.length > 0 || lane.state === 'streaming' || lane.state === 'presenting';
		setHidden(this._streamLabel, !showStream);
		setHidden(this._stream.element, !showStream);
		setClass(this._stream.element, 'is-waiting', lane.text.length === 0);
		const textChanged = this._stream.update(lane.text, lane.textDropped);

		setHidden(this._reasoningGroup, lane.reasoning.length === 0 && lane.reasoningDropped === 0);
		let reasoningChanged = false;
		if (this._reasoningGroup.open) {
			reasoningChanged = this._reasoning.update(lane.reasoning, lane.reasoningDropped);
		}

		this._tools.update(lane.toolCalls);
		this._answers.update(lane.answers);
		return textChanged || reasoningChanged;
	}

	/** Expands the lane (an approval request of its agent: the call it is about is in the body). */
	expand(): void {
		if (this._isExpanded()) return;
		this._viewState.setOpen(this._laneKey, true);
		this._applyExpanded(true);
	}

	private get _laneKey(): string {
		return `lane:${this._agentId}`;
	}

	/** What the user chose for this lane, null when they did not (then the run's state decides). */
	private _userExpanded(): boolean | null {
		const open = this._viewState.isOpen(this._laneKey, true);
		return open === this._viewState.isOpen(this._laneKey, false) ? open : null;
	}

	private _isExpanded(): boolean {
		return this._expanded ?? false;
	}

	private _applyExpanded(open: boolean): void {
		if (this._expanded === open) return;
		this._expanded = open;
		setClass(this.element, 'is-compact', !open);
		this._toggle.setAttribute('aria-expanded', String(open));
		if (open) requestAnimationFrame(() => this._stream.scrollToEndIfFollowing());
		else if (this._lane) this._renderPeek(this._lane);
	}

	/** Compact: the running tool call, else the last line of the output. */
	private _renderPeek(lane: AgentLane): void {
		if (!this.element.classList.contains('is-compact')) return;
		const running = lane.toolCalls.findLast((call) => call.result === null);
		const tool = running ? [running.name, mainArgument(running)].filter(Boolean).join(' ') : '';
		setText(this._peekTool, tool);
		setHidden(this._peekTool, tool === '');
		setText(this._peekLine, tool === '' ? lastLine(lane.text) : '');
	}

	/** Follow the end of the streams (after every lane's DOM writes). */
	scrollToEnd(): void {
		this._stream.scrollToEndIfFollowing();
		if (this._reasoningGroup.open) this._reasoning.scrollToEndIfFollowing();
	}

	private _renderBadge(lane: AgentLane): void {
		const state = lane.stopped ? 'stopped' : lane.state;
		if (this._badgeState === state) return;
		this._badgeState = state;
		const look = lane.stopped ? { label: t('laneStopped'), icon: 'debug-stop' } : laneLook(lane.state);
		setData(this._badge, 'state', state);
		this._badge.replaceChildren(icon(look.icon, look.spin ? 'codicon-modifier-spin' : ''), look.label);
	}

	private _renderAlert(lane: AgentLane): void {
		const error: LaneError | null = lane.lastError;
		const key = `${lane.killedReason}\u0000${error?.t}\u0000${error?.message}\u0000${lane.state === 'error'}`;
		if (key === this._alertKey) return;
		this._alertKey = key;
		if (lane.stopped) {
			this._alert.dataset['kind'] = 'stopped';
			this._alert.replaceChildren(icon('debug-stop'), h('span', { text: t('stoppedByYouIts') }));
		} else if (lane.killedReason !== null) {
			this._alert.dataset['kind'] = 'killed';
			this._alert.replaceChildren(icon('circle-slash'), h('span', { text: t('killed', lane.killedReason) }));
		} else if (error) {
			const recovered = lane.state !== 'error' && error.kind === 'workflow';
			this._alert.dataset['kind'] = recovered ? 'warning' : 'error';
			this._alert.replaceChildren(
				icon(recovered ? 'warning' : 'error'),
				h('span', {
					text: `${error.kind === 'workflow' ? t('workflowError') : t('error', error.kind)}: ${error.message}`,
				}),
			);
		}
		setHidden(this._alert, lane.killedReason === null && !error);
	}
}

function sameExtras(a: LaneExtras | null, b: LaneExtras): boolean {
	return (
		a !== null &&
		a.isWinner === b.isWinner &&
		a.isPresenter === b.isPresenter &&
		a.votesReceived === b.votesReceived &&
		a.stoppable === b.stoppable &&
		a.messageable === b.messageable &&
		a.running === b.running
	);
}

/** The last line with text of a stream (at most the last 2,000 characters are looked at). */
function lastLine(text: string): string {
	const tail = text.slice(-2_000).trimEnd();
	return tail.slice(tail.lastIndexOf('\n') + 1).trim();
}

function counters(lane: AgentLane, extras: LaneExtras): string {
	const parts: string[] = [];
	if (lane.answers.length > 0) {
		parts.push(tc('answer', lane.answers.length, lane.answers.length));
	}
	if (extras.votesReceived > 0) {
		parts.push(tc('vote', extras.votesReceived, extras.votesReceived));
	}
	// Restarted on newer answers, or shown them mid-turn: either way it revised its work.
	const revised = lane.restarts + lane.updates;
	if (revised > 0) parts.push(tc('revisedAfterNewer', revised, revised));
	if (lane.workflowErrors > 0) {
		parts.push(tc('workflowError2', lane.workflowErrors, lane.workflowErrors));
	}
	return parts.join(' · ');
}
