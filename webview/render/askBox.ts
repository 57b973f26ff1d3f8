/**
 * The question box: a textarea and an Ask button (Ctrl/Cmd+Enter). The draft survives reloads.
 */
import type { WebviewMessage } from '../../src/protocol/messages.js';
import type { RunStateStatus } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { button, h, setDisabled, setText } from './dom.js';

interface TextareaElement extends HTMLElement {
	value: string;
}

const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export class AskBox {
	readonly element: HTMLElement;
	private readonly _input: TextareaElement;
	private readonly _ask: HTMLElement;
	private readonly _hint: HTMLSpanElement;
	private _running = false;
	private _key = '';

	constructor(
		private readonly _post: (message: WebviewMessage) => void,
		private readonly _viewState: ViewStateStore,
	) {
		this._input = document.createElement('vscode-textarea') as TextareaElement;
		this._input.id = 'ask-input';
		this._input.className = 'ask-input';
		this._input.setAttribute('rows', '3');
		this._input.setAttribute('resize', 'vertical');
		this._input.setAttribute('label', 'Question for the team');
		this._input.setAttribute('placeholder', 'Ask the team…');
		this._input.value = _viewState.draft;
		this._input.addEventListener('input', () => this._changed());
		this._input.addEventListener('keydown', (event) => {
			if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
				event.preventDefault();
				this._submit();
			}
		});
		this._ask = button('Ask', () => this._submit(), {
			icon: 'send',
			class: 'ask-button',
			ariaLabel: 'Ask the team',
		});
		this._ask.id = 'ask-button';
		this._hint = h('span', { class: 'ask-hint' });
		this.element = h(
			'footer',
			{ class: 'ask-box', attrs: { 'aria-label': 'Ask the team' } },
			h('label', { class: 'sr-only', text: 'Question for the team', attrs: { for: 'ask-input' } }),
			this._input,
			h('div', { class: 'ask-row' }, this._hint, this._ask),
		);
		this._refresh();
	}

	/** Asking is possible when no run is going (the host runs one team at a time). */
	update(status: RunStateStatus | null, hasRun: boolean): void {
		const key = `${status === 'running'}|${hasRun}`;
		if (key === this._key) return;
		this._key = key;
		this._running = status === 'running';
		this._input.setAttribute(
			'placeholder',
			hasRun ? 'Ask a follow-up…' : 'Ask the team a question about this workspace…',
		);
		this._refresh();
	}

	private _changed(): void {
		this._viewState.setDraft(this._input.value);
		this._refresh();
	}

	private _refresh(): void {
		const empty = this._input.value.trim().length === 0;
		setDisabled(this._ask, empty || this._running);
		setText(
			this._hint,
			this._running
				? 'A run is in progress. Cancel it to ask something else.'
				: `${isMac ? '⌘' : 'Ctrl'}+Enter to ask`,
		);
	}

	private _submit(): void {
		const question = this._input.value.trim();
		if (!question || this._running) return;
		this._post({ type: 'ask', question });
		this._input.value = '';
		this._viewState.setDraft('');
		this._refresh();
	}
}
