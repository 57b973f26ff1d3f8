/**
 * The whole panel, built once; `render` hands the current state to each part, and each part
 * skips work when its slice of the state is unchanged (the reducer shares unchanged objects).
 */
import { t } from '../strings.js';
import type { ChangeOutcomesView } from '../../src/protocol/changeSetView.js';
import type { PastRunSummary, WebviewMessage } from '../../src/protocol/messages.js';
import type { RunState } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { ApprovalsView } from './approvals.js';
import type { ChangeSetInput } from './changes.js';
import { AskBox } from './askBox.js';
import { panelSection } from './collapsible.js';
import { h, icon, setHidden, setText } from './dom.js';
import { HeaderView } from './header.js';
import { runLook } from './laneState.js';
import { LanesView } from './lanes.js';
import { PastRunsView } from './pastRuns.js';
import { PlanProgressPart } from './planProgress.js';
import type { PlanProgressView } from '../../src/protocol/planProgress.js';
import { ResultView } from './result.js';
import { RunSwitcherView } from './runSwitcher.js';
import { SteerBox } from './steerBox.js';
import { VotesView } from './votes.js';

export class Panel {
	private readonly _switcher: RunSwitcherView;
	private readonly _header: HeaderView;
	private readonly _plan = new PlanProgressPart();
	private readonly _steer: SteerBox;
	private readonly _empty: HTMLElement;
	private readonly _approvals: ApprovalsView;
	private readonly _result: ResultView;
	private readonly _agents: ReturnType<typeof panelSection>;
	private readonly _lanes: LanesView;
	private readonly _votesSection: ReturnType<typeof panelSection>;
	private readonly _votes: VotesView;
	private readonly _runsSection: ReturnType<typeof panelSection>;
	private readonly _pastRuns: PastRunsView;
	private readonly _ask: AskBox;
	private readonly _live: HTMLDivElement;
	private _announced = '';

	constructor(
		root: HTMLElement,
		post: (message: WebviewMessage) => void,
		private readonly _viewState: ViewStateStore,
	) {
		this._live = h('div', {
			class: 'sr-only',
			attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' },
		});
		const announce = (text: string) => setText(this._live, text);
		this._switcher = new RunSwitcherView(post, announce);
		this._header = new HeaderView(post, _viewState);
		this._empty = h(
			'section',
			{ class: 'empty-state', attrs: { 'aria-labelledby': 'empty-heading' } },
			icon('organization', 'empty-icon'),
			h('h1', { text: 'MassGen', attrs: { id: 'empty-heading' } }),
			h('p', {
				text: t('aTeamOfAgents'),
			}),
		);
		this._approvals = new ApprovalsView(post, announce, _viewState);
		this._result = new ResultView(_viewState, post);
		this._agents = panelSection('agents', t('agents'), _viewState);
		this._steer = new SteerBox(post);
		this._lanes = new LanesView(_viewState, post, (agentId) => this._steer.messageAgent(agentId));
		this._agents.body.append(this._lanes.element);
		this._votesSection = panelSection('votes', t('votes'), _viewState);
		this._votes = new VotesView(_viewState);
		this._votesSection.body.append(this._votes.element);
		this._runsSection = panelSection('runs', t('pastRuns'), _viewState, true);
		this._pastRuns = new PastRunsView(post);
		this._runsSection.body.append(this._pastRuns.element);
		this._ask = new AskBox(post, _viewState);
		root.replaceChildren(
			this._switcher.element,
			this._header.element,
			this._plan.element,
			this._empty,
			this._approvals.element,
			this._result.element,
			this._agents.section,
			// Under the lanes it speaks to: the lanes keep their place at the top while the run goes.
			this._steer.element,
			this._votesSection.section,
			this._runsSection.section,
			this._ask.element,
			this._live,
		);
		root.removeAttribute('aria-busy');
	}

	/** The ask box, for the host's answers about context (`context-results`, `chips-added`). */
	get askBox(): AskBox {
		return this._ask;
	}

	/** The run switcher (the host's `live-runs`). */
	get switcher(): RunSwitcherView {
		return this._switcher;
	}

	/** The host's answer to the message box's `steer` or the header's Finish now. */
	controlResult(
		runId: string,
		action: 'steer' | 'finish-now',
		ok: boolean,
		reason: string | undefined,
	): void {
		if (action === 'steer') this._steer.result(runId, ok, reason);
		else this._header.finishResult(runId, ok, reason);
	}

	/** A snapshot replaced the state: drop per-request local bookkeeping. */
	reset(): void {
		this._approvals.reset();
		this._steer.reset();
		this._header.reset();
	}

	render(
		state: RunState | null,
		runs: readonly PastRunSummary[],
		changeSet: ChangeSetInput = undefined,
		outcomes?: ChangeOutcomesView,
		plans: readonly PlanProgressView[] = [],
	): void {
		const hasRun = state !== null && state.runId !== null;
		this._plan.update(plans, state?.runId ?? null);
		if (hasRun) this._viewState.useRun(state.runId);
		setHidden(this._header.element, !hasRun);
		setHidden(this._empty, hasRun);
		setHidden(this._agents.section, !hasRun);
		setHidden(
			this._votesSection.section,
			!hasRun ||
				(state.voteHistory.length === 0 &&
					state.status === 'running' &&
					Object.keys(state.answerLabels).length === 0),
		);
		if (state && hasRun) {
			this._header.update(state);
			this._steer.update(state);
			this._approvals.update(state);
			this._placeApprovals();
			this._result.update(state, changeSet, outcomes);
			this._lanes.update(state);
			setText(this._agents.count, String(state.agentOrder.length));
			const votes = this._votes.update(state);
			setText(this._votesSection.count, votes > 0 ? String(votes) : '');
			this._announce(state);
		} else {
			setHidden(this._approvals.element, true);
			setHidden(this._result.element, true);
			setHidden(this._steer.element, true);
		}
		setText(
			this._runsSection.count,
			runs.length > 0 ? String(this._pastRuns.update(runs, state?.runId ?? null)) : '',
		);
		if (runs.length === 0) this._pastRuns.update(runs, state?.runId ?? null);
		this._ask.update(state?.status ?? null, hasRun, state?.runId ?? null, state?.question);
	}

	/** Pending approvals go right under the header; a decided-only history sits above past runs. */
	private _placeApprovals(): void {
		const before = this._approvals.pendingCount > 0 ? this._result.element : this._runsSection.section;
		if (this._approvals.element.nextElementSibling !== before) before.before(this._approvals.element);
	}

	/** Once a second while a run is going. */
	tick(): void {
		this._header.tick();
	}

	private _announce(state: RunState): void {
		const look = runLook(state.status);
		const winner = state.winner ? t('winnerIs', state.winner.agentId) : '';
		const text = t('run', look.label.toLowerCase(), winner);
		if (text === this._announced) return;
		this._announced = text;
		setText(this._live, text);
	}
}
