/**
 * The run header: question, what was attached to it, status, elapsed time, agents, total tokens
 * and cost (against the run budget; per agent in "Usage by agent"), how commands are contained
 * (when agents may run any), why coordination ended, and Finish now and Cancel while the run is
 * going. Elapsed time ticks locally between events.
 */
import { t, tc } from '../strings.js';
import type { WebviewMessage } from '../../src/protocol/messages.js';
import type { AttachmentRecord, RunState } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { coordinationEndWords } from './coordinationEnd.js';
import { button, h, icon, setData, setDisabled, setHidden, setText, setTitle } from './dom.js';
import { formatCost, formatDuration, formatTokens } from './format.js';
import { runLook } from './laneState.js';
import { costText, sumsOf } from './usageSums.js';
import { UsageTable } from './usageTable.js';
import { VoteStrip } from './voteStrip.js';

export class HeaderView {
	readonly element: HTMLElement;
	private readonly _question: HTMLHeadingElement;
	private readonly _status: HTMLSpanElement;
	private readonly _elapsed: HTMLSpanElement;
	private readonly _agents: HTMLSpanElement;
	private readonly _tokens: HTMLSpanElement;
	private readonly _cost: HTMLSpanElement;
	private readonly _costItem: HTMLSpanElement;
	private readonly _folder: HTMLSpanElement;
	private readonly _folderItem: HTMLSpanElement;
	private readonly _commands: HTMLSpanElement;
	private readonly _attachments: HTMLUListElement;
	private readonly _instructions: HTMLUListElement;
	private readonly _notices: HTMLUListElement;
	private readonly _cancel: HTMLElement;
	private readonly _finish: HTMLElement;
	/** What became of Finish now when the run refused it (its reason). */
	private readonly _finishNotice: HTMLDivElement;
	private readonly _ended: HTMLDivElement;
	private readonly _usage: UsageTable;
	private readonly _error: HTMLDivElement;
	private readonly _votes = new VoteStrip();
	private _state: RunState | null = null;
	private _statusKey = '';
	private _lastT = -1;
	private _lastTAt = 0;

	constructor(post: (message: WebviewMessage) => void, viewState: ViewStateStore) {
		this._question = h('h1', { class: 'question' });
		this._status = h('span', { class: 'run-status' });
		this._elapsed = h('span', { class: 'meta-item elapsed' });
		this._agents = h('span', { class: 'meta-item' });
		this._tokens = h('span', { class: 'meta-item' });
		this._cost = h('span', { class: 'meta-item cost' });
		this._costItem = h('span', { class: 'meta-item-wrap' }, icon('credit-card'), this._cost);
		this._folder = h('span', { class: 'meta-item' });
		this._folderItem = h('span', { class: 'meta-item-wrap run-folder' }, icon('root-folder'), this._folder);
		this._folderItem.hidden = true;
		this._commands = h('span', { class: 'meta-item-wrap command-sandbox' });
		this._commands.hidden = true;
		// The run this header was rendered for: a click right after a switch cannot cancel another run.
		const cancel = () => {
			const runId = this._state?.runId;
			if (runId) post({ type: 'cancel', runId });
		};
		this._cancel = button(t('cancel'), cancel, {
			icon: 'debug-stop',
			secondary: true,
			ariaLabel: t('cancelTheRun'),
			class: 'cancel-run',
		});
		// Pressed once per run: disabled until the host answers (a refusal enables it again).
		const finish = () => {
			const runId = this._state?.runId;
			if (!runId) return;
			setDisabled(this._finish, true);
			setHidden(this._finishNotice, true);
			post({ type: 'finish-now', runId });
		};
		this._finish = button(t('finishNow'), finish, {
			icon: 'check-all',
			secondary: true,
			ariaLabel: t('finishNowAria'),
			class: 'finish-now',
		});
		setTitle(this._finish, t('finishNowTitle'));
		// Their words go in a narrow side bar (style.css), so the question keeps the room; the names stay.
		this._finish.replaceChildren(h('span', { class: 'header-button-label', text: t('finishNow') }));
		this._cancel.replaceChildren(h('span', { class: 'header-button-label', text: t('cancel') }));
		this._finishNotice = h('div', { class: 'finish-notice', attrs: { role: 'alert' } });
		this._finishNotice.hidden = true;
		this._ended = h('div', { class: 'coordination-end', attrs: { role: 'status' } });
		this._ended.hidden = true;
		this._usage = new UsageTable(viewState);
		this._attachments = h('ul', { class: 'run-attachments', attrs: { 'aria-label': t('attached') } });
		this._attachments.hidden = true;
		this._instructions = h('ul', {
			class: 'run-instructions',
			attrs: { 'aria-label': t('projectInstructions') },
		});
		this._instructions.hidden = true;
		this._notices = h('ul', { class: 'run-notices', attrs: { 'aria-label': t('notices') } });
		this._notices.hidden = true;
		this._error = h('div', { class: 'run-error', attrs: { role: 'alert' } });
		this._error.hidden = true;
		this.element = h(
			'header',
			{ class: 'run-header' },
			h(
				'div',
				{ class: 'header-row' },
				h('div', { class: 'header-main' }, this._question),
				this._finish,
				this._cancel,
			),
			this._finishNotice,
			this._attachments,
			this._instructions,
			this._notices,
			h(
				'div',
				{ class: 'header-meta' },
				this._status,
				h('span', { class: 'meta-item-wrap' }, icon('clock'), this._elapsed),
				h('span', { class: 'meta-item-wrap' }, icon('organization'), this._agents),
				h('span', { class: 'meta-item-wrap' }, icon('pulse'), this._tokens),
				this._costItem,
				this._folderItem,
				this._commands,
				// In the meta row (no line of its own while closed); open, the table takes the row's width.
				this._usage.element,
			),
			this._ended,
			this._votes.element,
			this._error,
		);
	}

	/** A new snapshot: Finish now is offered again (an answer the hidden page missed is not waited for). */
	reset(): void {
		setDisabled(this._finish, false);
	}

	/** The host's answer to Finish now: refused, its reason shown and the button offered again. */
	finishResult(runId: string, ok: boolean, reason: string | undefined): void {
		if (runId !== this._state?.runId || ok) return;
		setDisabled(this._finish, false);
		setText(this._finishNotice, t('finishRefused', reason ?? ''));
		setHidden(this._finishNotice, false);
	}

	update(state: RunState): void {
		const previous = this._state;
		this._state = state;
		if (state.lastT !== this._lastT) {
			this._lastT = state.lastT;
			this._lastTAt = performance.now();
		}
		if (!previous || previous.question !== state.question) {
			setText(this._question, state.question || t('untitledRun'));
			setTitle(this._question, state.question);
		}
		if (!previous || previous.workspace !== state.workspace) {
			// The folder the run worked on (one folder of a multi-root workspace): its name, the path on hover.
			setHidden(this._folderItem, !state.workspace);
			setText(this._folder, folderName(state.workspace));
			setTitle(this._folderItem, state.workspace ? t('workedOn', state.workspace) : '');
		}
		if (state.status !== this._statusKey) {
			this._statusKey = state.status;
			const look = runLook(state.status);
			setData(this._status, 'status', state.status);
			this._status.replaceChildren(icon(look.icon, look.spin ? 'codicon-modifier-spin' : ''), look.label);
		}
		setHidden(this._cancel, state.status !== 'running');
		if (previous?.runId !== state.runId) {
			setDisabled(this._finish, false);
			setHidden(this._finishNotice, true);
		}
		// Only while agents coordinate: once a winner is chosen the presentation is under way.
		const coordinating =
			state.status === 'running' && state.winner === null && state.coordinationEnd === undefined;
		setHidden(this._finish, !coordinating);
		if (!coordinating) setHidden(this._finishNotice, true);
		if (!previous || previous.coordinationEnd !== state.coordinationEnd) {
			const end = state.coordinationEnd;
			setHidden(this._ended, !end);
			setData(this._ended, 'reason', end?.reason ?? '');
			setText(this._ended, end ? coordinationEndWords(end) : '');
		}
		setHidden(this._error, !state.error);
		setText(this._error, state.error ?? '');
		if (
			!previous ||
			previous.agents !== state.agents ||
			previous.agentOrder !== state.agentOrder ||
			previous.budget !== state.budget
		) {
			this._renderTotals(state);
			this._usage.update(state);
		}
		if (!previous || previous.commandSandbox !== state.commandSandbox) this._renderCommands(state);
		this._votes.update(state);
		if (!previous || previous.attachments !== state.attachments) this._renderAttachments(state);
		if (!previous || previous.instructions !== state.instructions) this._renderInstructions(state);
		if (
			!previous ||
			previous.notices !== state.notices ||
			previous.restarts !== state.restarts ||
			previous.evaluating !== state.evaluating ||
			previous.budget !== state.budget
		) {
			this._renderNotices(runNotices(state));
		}
		this.tick();
	}

	/** Refreshes the elapsed time (called every second while running). */
	tick(): void {
		const state = this._state;
		if (!state) return;
		let elapsed = state.durationMs ?? state.lastT;
		if (state.status === 'running') elapsed = state.lastT + (performance.now() - this._lastTAt);
		setText(this._elapsed, formatDuration(elapsed));
		setTitle(this._elapsed, state.status === 'running' ? t('elapsed') : t('duration'));
	}

	private _renderAttachments(state: RunState): void {
		const attachments = state.attachments ?? [];
		setHidden(this._attachments, attachments.length === 0);
		this._attachments.replaceChildren(
			...attachments.map((attachment) => {
				const label = attachmentLabel(attachment);
				return h(
					'li',
					{
						class: 'attachment',
						title: `${attachment.kind}: ${label}`,
						attrs: { 'data-kind': attachment.kind },
					},
					icon(attachmentIcons[attachment.kind]),
					h('span', { class: 'meta-item' }, label),
				);
			}),
		);
	}

	/** The project's instruction files the agents got (names only). */
	private _renderInstructions(state: RunState): void {
		const files = state.instructions ?? [];
		setHidden(this._instructions, files.length === 0);
		this._instructions.replaceChildren(
			...files.map((file) => {
				const label = file.truncated ? t('instructionsCut', file.path) : file.path;
				return h(
					'li',
					{ class: 'instruction', title: `${t('projectInstructions')}: ${label}` },
					icon('book'),
					h('span', { class: 'meta-item' }, label),
				);
			}),
		);
	}

	/** What the user should know about this run (an agent that does not see the attached images). */
	private _renderNotices(notices: readonly string[]): void {
		setHidden(this._notices, notices.length === 0);
		this._notices.replaceChildren(
			...notices.map((notice) =>
				h('li', { class: 'run-notice' }, icon('info'), h('span', { class: 'meta-item' }, notice)),
			),
		);
	}

	private _renderCommands(state: RunState): void {
		const sandbox = state.commandSandbox;
		setHidden(this._commands, !sandbox);
		if (!sandbox) return;
		const [name, label] =
			sandbox.mode === 'off'
				? ['circle-slash', t('commandsOff')]
				: sandbox.mode === 'none'
					? ['warning', t('commandsNotSandboxed')]
					: ['shield', t('commandsSandboxed', sandbox.mode)];
		setData(this._commands, 'mode', sandbox.mode);
		this._commands.replaceChildren(icon(name), h('span', { class: 'meta-item' }, label));
		const scratch =
			sandbox.scratch === 'overlay'
				? t('eachAgentsCommandsRun')
				: sandbox.scratch === 'copy'
					? t('eachAgentsCommandsRun2')
					: '';
		setTitle(this._commands, sandbox.notice + scratch);
	}

	private _renderTotals(state: RunState): void {
		const lanes = state.agentOrder.flatMap((id) =>
			Object.hasOwn(state.agents, id) ? [state.agents[id]!] : [],
		);
		const sums = sumsOf(lanes);
		const { input, output, unpriced } = sums;
		const live = lanes.filter((lane) => lane.state !== 'killed').length;
		const total = state.agentOrder.length;
		setText(
			this._agents,
			live === total ? tc('agentCount', total, total) : t('ofLive', live, tc('agentCount', total, total)),
		);
		// With a run budget: spent / cap (the cap the run applies: the lower of settings and config).
		const budget = state.budget;
		const tokenCap = budget?.maxTokens ?? null;
		const costCap = budget?.maxCostUsd ?? null;
		setText(
			this._tokens,
			t('tokens', formatTokens(input + output), tokenCap === null ? '' : ` / ${formatTokens(tokenCap)}`),
		);
		setTitle(this._tokens, t('inputOutput', input.toLocaleString('en-US'), output.toLocaleString('en-US')));
		// No price known for any agent and no cost cap: no cost shown at all (its tooltip would only say why).
		setHidden(this._costItem, sums.cost === null && costCap === null);
		const spent = costText(sums);
		setText(this._cost, costCap === null ? spent : `${spent} / ${formatCost(costCap)}`);
		setData(this._cost, 'budget', costCap === null ? '' : String(costCap));
		const capNote = costCap === null ? '' : t('runBudgetTheRun', formatCost(costCap));
		setTitle(
			this._cost,
			(unpriced > 0 ? tc('useAModelWith', unpriced, unpriced) : t('estimatedFromListPrices')) + capNote,
		);
	}
}

const attachmentIcons: Record<AttachmentRecord['kind'], string> = {
	file: 'file',
	folder: 'folder',
	diff: 'diff',
	diagnostics: 'warning',
	terminal: 'terminal',
	text: 'note',
	image: 'file-media',
};

/** "src/a.ts lines 3–9", "working-tree diff", "(truncated)" when the agents saw only part of it. */
export function attachmentLabel(attachment: AttachmentRecord): string {
	const { kind, source, lines } = attachment;
	const range = lines
		? lines.start === lines.end
			? t('line', lines.start)
			: t('lines', lines.start, lines.end)
		: '';
	const what =
		kind === 'diff' ? t('diff', source) : kind === 'diagnostics' ? t('problemsIn', source) : source;
	return `${what}${range}${attachment.truncated ? ' (truncated)' : ''}`;
}

/** The run's notices, then post-evaluation's restarts and the check going on now. */
function runNotices(state: RunState): string[] {
	const restarts = (state.restarts ?? []).map((restart) =>
		t(
			'attemptWasSentBack',
			restart.attempt - 1,
			restart.reason,
			restart.instructions ? t('nextInstructions', restart.instructions) : '',
		),
	);
	const evaluating = state.evaluating ? [t('isCheckingTheFinal', state.evaluating.agentId)] : [];
	const budget = state.budget?.reason ? [t('stopped', state.budget.reason)] : [];
	return [...(state.notices ?? []), ...restarts, ...evaluating, ...budget];
}

/** The last segment of a folder path (POSIX or Windows). */
function folderName(path: string): string {
	return (
		path
			.replace(/[\\/]+$/, '')
			.split(/[\\/]/)
			.pop() ?? path
	);
}
