/**
 * The question box: a textarea, its attachment chips, a Plan toggle and an Ask button. With Plan on
 * (`aria-pressed`; it survives reloads) the question is a task for Plan with Team: the host starts
 * a read-only plan run instead of a question. Enter asks (so do Ctrl/Cmd+
 * Enter), Shift+Enter is a new line, and an Enter that ends an IME composition only commits it. From
 * the moment a question is sent until the host answers (the run's first event, a refusal) a
 * "starting" line says the team is being started. Context
 * comes from `#` completion, the "+" button (the host's picker), a pasted or dropped image, or a
 * file dropped from the Explorer; each is a removable chip sent with the question and cleared
 * after it. The draft and its chips survive reloads and the panel being hidden.
 */
import { t } from '../strings.js';
import type { AttachmentChip } from '../../src/protocol/attachmentChip.js';
import { MAX_CHIPS } from '../../src/protocol/attachmentChip.js';
import type { WebviewMessage } from '../../src/protocol/messages.js';
import type { RunStateStatus } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { ChipList } from './chips.js';
import { ContextCompletion } from './contextCompletion.js';
import { button, h, icon, setClass, setDisabled, setText } from './dom.js';
import { imageChip, imageRoom, imageTypes } from './imageChip.js';

interface TextareaElement extends HTMLElement {
	value: string;
	/** The `<textarea>` inside `vscode-textarea` (its caret); null before the first render. */
	readonly wrappedElement: HTMLTextAreaElement | null;
	readonly updateComplete?: Promise<unknown>;
}

/**
 * Enter (alone, or with Ctrl/Cmd) asks; Shift+Enter types a new line (Alt+Enter does nothing). An Enter that
 * commits an IME composition (`isComposing`; key code 229 where a browser reports it so) only
 * commits it.
 */
function isSend(event: KeyboardEvent): boolean {
	if (event.key !== 'Enter' || event.shiftKey || event.altKey) return false;
	return !event.isComposing && event.keyCode !== 229;
}

export class AskBox {
	readonly element: HTMLElement;
	private readonly _input: TextareaElement;
	private readonly _ask: HTMLElement;
	private readonly _plan: HTMLElement;
	private readonly _hint: HTMLSpanElement;
	private readonly _notice: HTMLDivElement;
	private readonly _starting: HTMLDivElement;
	private readonly _chipList: ChipList;
	private readonly _completion: ContextCompletion;
	private _chips: readonly AttachmentChip[];
	private _running = false;
	/** Whether the panel shows a run (undefined before the host's first update). */
	private _hasRun: boolean | undefined;
	/** Sent and not answered yet: the run shown when it was sent (null: none), until the host answers. */
	private _sentFrom: { readonly runId: string | null } | undefined;
	/** A question the host gave back (`refused`) and still in the box untouched: it may run later. */
	private _returned: string | undefined;
	/** The run the panel shows (`update`). */
	private _shownRunId: string | null = null;
	private _key = '';
	private _pastedImages = 0;

	constructor(
		private readonly _post: (message: WebviewMessage) => void,
		private readonly _viewState: ViewStateStore,
	) {
		this._input = document.createElement('vscode-textarea') as TextareaElement;
		this._input.id = 'ask-input';
		this._input.className = 'ask-input';
		this._input.setAttribute('rows', '3');
		this._input.setAttribute('resize', 'vertical');
		this._input.setAttribute('label', t('questionForTheTeam'));
		this._input.value = _viewState.draft;
		this._chips = _viewState.chips;
		this._completion = new ContextCompletion({
			text: () => this._text(),
			cut: (start, end) => this._cut(start, end),
			post: _post,
			pick: (chip) => this._add([chip]),
		});
		this._input.addEventListener('input', () => {
			this._returned = undefined;
			this._changed();
			this._completion.refresh();
		});
		this._input.addEventListener('keydown', (event) => {
			if (this._completion.keydown(event)) {
				event.preventDefault();
				event.stopPropagation();
				return;
			}
			if (isSend(event)) {
				event.preventDefault();
				this._submit();
			}
		});
		// The caret moved without an edit (arrows, a click): the `#text` under it may differ.
		this._input.addEventListener('keyup', (event) => {
			if (!['ArrowDown', 'ArrowUp', 'Enter', 'Tab', 'Escape'].includes(event.key)) this._completion.refresh();
		});
		this._input.addEventListener('click', () => this._completion.refresh());
		this._input.addEventListener('paste', (event) => this._paste(event));
		this._ask = button(t('ask'), () => this._submit(), {
			icon: 'send',
			class: 'ask-button',
			ariaLabel: t('askTheTeam2'),
		});
		this._ask.id = 'ask-button';
		this._plan = button('', () => this._togglePlan(), {
			icon: 'checklist',
			secondary: true,
			class: 'ask-plan',
			ariaLabel: t('planToggle'),
		});
		this._plan.id = 'ask-plan';
		this._plan.title = t('planToggleTitle');
		const add = button('', () => this._post({ type: 'pick-context' }), {
			icon: 'add',
			secondary: true,
			class: 'ask-add',
			ariaLabel: t('addContext'),
		});
		add.id = 'ask-add';
		add.title = t('addContextOrType');
		this._hint = h('span', { class: 'ask-hint' });
		this._notice = h('div', { class: 'ask-notice', attrs: { role: 'alert' } });
		this._notice.hidden = true;
		this._starting = h(
			'div',
			{ class: 'ask-starting', attrs: { role: 'status' } },
			icon('loading', 'codicon-modifier-spin'),
			h('span', { text: t('startingTheTeam') }),
		);
		this._starting.hidden = true;
		this._chipList = new ChipList(
			(id) => this._remove(id),
			() => this._input.focus(),
		);
		this.element = h(
			'footer',
			{ class: 'ask-box', attrs: { 'aria-label': t('askTheTeam2') } },
			h('label', { class: 'sr-only', text: t('questionForTheTeam'), attrs: { for: 'ask-input' } }),
			this._starting,
			this._completion.element,
			this._chipList.element,
			this._input,
			this._notice,
			h('div', { class: 'ask-row' }, add, this._hint, this._plan, this._ask),
		);
		this.element.addEventListener('dragover', (event) => this._dragOver(event));
		this.element.addEventListener('drop', (event) => void this._drop(event));
		this._chipList.update(this._chips);
		this._refresh();
	}

	/**
	 * A question asked while the shown run goes is a new run beside it (the host queues it past
	 * its limit), not a follow-up: the box says so. `runId`: the run shown; another one than when
	 * a question was sent means its run has started. A question given
	 * back that now runs after all (`question`: the no-model offer's choice) leaves the box.
	 */
	update(
		status: RunStateStatus | null,
		hasRun: boolean,
		runId: string | null = null,
		question?: string,
	): void {
		this._shownRunId = runId;
		if (this._sentFrom && this._sentFrom.runId !== runId) this.settled();
		if (status === 'running' && this._returned !== undefined && question === this._returned) {
			if (this._input.value.trim() === this._returned) this._clear();
			this._returned = undefined;
		}
		const key = `${status === 'running'}|${hasRun}`;
		if (key === this._key) return;
		this._key = key;
		this._running = status === 'running';
		this._hasRun = hasRun;
		this._refresh();
	}

	/** Gives the question box the keyboard (the host's `focus-ask`). */
	focus(): void {
		this._input.focus();
	}

	/** The host answered a sent question (its run started or ended, or it was refused): no more "starting". */
	settled(): void {
		this._sentFrom = undefined;
		this._starting.hidden = true;
	}

	/** `context-results` from the host. */
	contextResults(requestId: string, items: readonly AttachmentChip[]): void {
		this._completion.results(requestId, items);
	}

	/** `chips-added` from the host ("+", "Add Context", an Explorer drop). */
	chipsAdded(chips: readonly AttachmentChip[], notice: string | undefined): void {
		this._add(chips, notice);
	}

	/**
	 * The host did not run the question: it comes back with its chips (unless the user has typed
	 * or attached something new meanwhile), and the reason shows under the box.
	 */
	refused(question: string, chips: readonly AttachmentChip[], reason: string): void {
		this.settled();
		if (this._input.value.trim() === '' && this._chips.length === 0) {
			this._input.value = question;
			this._changed();
			this._setChips(chips);
			this._returned = question;
		}
		this._showNotice(t('notAsked', reason));
	}

	private _text(): { value: string; caret: number } {
		const value = this._input.value;
		const caret = this._input.wrappedElement?.selectionStart ?? value.length;
		return { value, caret };
	}

	private _cut(start: number, end: number): void {
		const value = this._input.value;
		this._input.value = value.slice(0, start) + value.slice(end);
		const place = () => this._input.wrappedElement?.setSelectionRange(start, start);
		place();
		// The component renders its new value asynchronously: put the caret back after it did.
		void this._input.updateComplete?.then(place);
		this._changed();
	}

	/** Adds chips (new ids; the same attachment twice is kept once); `notice` says what was left out. */
	private _add(chips: readonly AttachmentChip[], notice?: string): void {
		const notes = notice ? [notice] : [];
		let next = this._chips;
		let id = Math.max(0, ...next.map((chip) => Number(/^c(\d+)$/.exec(chip.id)?.[1] ?? 0)));
		for (const chip of chips) {
			const key = JSON.stringify(chip.request);
			if (next.some((other) => JSON.stringify(other.request) === key)) continue;
			if (next.length >= MAX_CHIPS) {
				notes.push(t('atMostAttachmentsPer', MAX_CHIPS));
				break;
			}
			id += 1;
			next = [...next, { ...chip, id: `c${id}` }];
		}
		this._setChips(next);
		this._showNotice(notes.join(' '));
	}

	private _remove(id: string): void {
		this._setChips(this._chips.filter((chip) => chip.id !== id));
		this._showNotice('');
	}

	private _setChips(chips: readonly AttachmentChip[]): void {
		if (chips === this._chips) return;
		this._chips = chips;
		this._viewState.setChips(chips);
		this._chipList.update(chips);
	}

	private _showNotice(text: string): void {
		setText(this._notice, text);
		this._notice.hidden = text === '';
	}

	private _paste(event: ClipboardEvent): void {
		const files = [...(event.clipboardData?.items ?? [])]
			.filter((item) => item.kind === 'file' && item.type.startsWith('image/'))
			.map((item) => item.getAsFile())
			.filter((file): file is File => file !== null);
		if (files.length === 0) return;
		// An image is an attachment, not text: nothing goes into the question.
		event.preventDefault();
		void this._addImages(files);
	}

	private _dragOver(event: DragEvent): void {
		const types = event.dataTransfer?.types ?? [];
		if (!types.includes('Files') && !types.includes('text/uri-list')) return;
		event.preventDefault();
		if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
	}

	private async _drop(event: DragEvent): Promise<void> {
		const data = event.dataTransfer;
		if (!data) return;
		const files = [...data.files];
		const uris = (data.getData('text/uri-list') || '')
			.split(/\r?\n/)
			.map((line) => line.trim())
			.filter((line) => line !== '' && !line.startsWith('#'));
		if (files.length === 0 && uris.length === 0) return;
		event.preventDefault();
		const images = files.filter((file) => (imageTypes as readonly string[]).includes(file.type));
		if (images.length > 0) await this._addImages(images);
		else if (uris.length > 0) this._post({ type: 'drop-uris', uris: uris.slice(0, 100) });
		else {
			this._showNotice(t('onlyImagesPngJpeg'));
		}
	}

	private async _addImages(files: readonly File[]): Promise<void> {
		const notes: string[] = [];
		for (const file of files) {
			this._pastedImages += 1;
			const outcome = await imageChip(file, imageRoom(this._chips), this._pastedImages);
			if (outcome.ok) this._add([{ id: 'new', ...outcome.chip }]);
			else notes.push(t('notAttached', outcome.reason));
		}
		if (notes.length) this._showNotice(notes.join(' '));
	}

	private _changed(): void {
		this._viewState.setDraft(this._input.value);
		this._refresh();
	}

	private get _planning(): boolean {
		return this._viewState.isOpen('ask:plan', false);
	}

	private _togglePlan(): void {
		this._viewState.setOpen('ask:plan', !this._planning);
		this._refresh();
	}

	private _refresh(): void {
		const empty = this._input.value.trim().length === 0;
		const planning = this._planning;
		setDisabled(this._ask, empty);
		setText(this._hint, this._running ? t('aRunIsIn') : planning ? t('enterToPlan') : t('enterToAsk'));
		this._plan.setAttribute('aria-pressed', String(planning));
		setClass(this._plan, 'pressed', planning);
		setText(this._ask, planning ? t('plan') : t('ask'));
		this._ask.setAttribute('aria-label', planning ? t('makePlan') : t('askTheTeam2'));
		const placeholder = planning
			? t('describeATaskTo')
			: this._hasRun === undefined
				? t('askTheTeam')
				: this._running
					? t('askAnotherQuestion')
					: this._hasRun
						? t('askAFollowUp')
						: t('askTheTeamA');
		if (this._input.getAttribute('placeholder') !== placeholder) {
			this._input.setAttribute('placeholder', placeholder);
		}
	}

	private _submit(): void {
		const question = this._input.value.trim();
		if (!question) return;
		const attachments = this._chips;
		this._post({
			type: 'ask',
			question,
			...(attachments.length ? { attachments } : {}),
			...(this._planning ? { mode: 'plan' as const } : {}),
		});
		// Shown now, not when the host answers: preparing a run (the engine, the team, keys) takes seconds.
		this._sentFrom = { runId: this._shownRunId };
		this._starting.hidden = false;
		this._clear();
	}

	private _clear(): void {
		this._returned = undefined;
		this._input.value = '';
		this._viewState.setDraft('');
		this._setChips([]);
		this._showNotice('');
		this._completion.refresh();
		this._refresh();
	}
}
