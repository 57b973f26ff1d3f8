/**
 * The message box of a running run: what the user tells the team while it works. A target picker
 * (every agent, or one lane: a lane's "Message" button picks it and gives the box the keyboard), a
 * "note only (keep votes)" choice and Send. Enter sends, Shift+Enter is a new line. The message
 * names the run the box was rendered for; the host answers with the outcome (`result`): sent (the
 * box empties) or refused (the text stays, the reason is shown).
 */
import { t } from '../strings.js';
import type { WebviewMessage } from '../../src/protocol/messages.js';
import type { RunState } from '../../src/protocol/runState.js';
import { MAX_STEER_CHARS } from '../../src/protocol/steerMessage.js';
import { button, h, icon, setDisabled, setHidden, setText, uniqueId } from './dom.js';

interface TextareaElement extends HTMLElement {
	value: string;
}

/** The target picker's value for "every agent" (no agent id is empty). */
const ALL = '';

export class SteerBox {
	readonly element: HTMLElement;
	private readonly _input: TextareaElement;
	private readonly _target: HTMLSelectElement;
	private readonly _noteOnly: HTMLInputElement;
	private readonly _send: HTMLElement;
	private readonly _status: HTMLDivElement;
	private _runId: string | null = null;
	private _order: readonly string[] = [];
	private _agents: RunState['agents'] | null = null;
	/** Sent and not answered yet (Send is disabled meanwhile). */
	private _pending = false;

	constructor(private readonly _post: (message: WebviewMessage) => void) {
		const headingId = uniqueId('steer-heading');
		const targetId = uniqueId('steer-target');
		const noteId = uniqueId('steer-note');
		this._input = document.createElement('vscode-textarea') as TextareaElement;
		this._input.className = 'steer-input';
		this._input.setAttribute('rows', '2');
		this._input.setAttribute('resize', 'vertical');
		this._input.setAttribute('label', t('steerLabel'));
		this._input.setAttribute('aria-label', t('steerLabel'));
		this._input.setAttribute('placeholder', t('steerPlaceholder'));
		this._input.setAttribute('maxlength', String(MAX_STEER_CHARS));
		this._input.addEventListener('keydown', (event) => {
			if (event.key !== 'Enter' || event.shiftKey || event.altKey) return;
			if (event.isComposing || event.keyCode === 229) return;
			event.preventDefault();
			this._submit();
		});
		this._input.addEventListener('input', () => this._changed());
		this._target = h('select', { class: 'steer-target', attrs: { id: targetId } });
		this._noteOnly = h('input', { class: 'steer-note', attrs: { type: 'checkbox', id: noteId } });
		this._send = button(t('steerSend'), () => this._submit(), {
			icon: 'send',
			class: 'steer-send',
			ariaLabel: t('steerSendAria'),
		});
		this._status = h('div', { class: 'steer-status', attrs: { role: 'status', 'aria-live': 'polite' } });
		this._status.hidden = true;
		this.element = h(
			'section',
			{ class: 'steer-box', attrs: { 'aria-labelledby': headingId } },
			h(
				'h2',
				{ class: 'steer-heading', attrs: { id: headingId } },
				icon('comment-discussion'),
				t('steerHeading'),
			),
			this._input,
			h(
				'div',
				{ class: 'steer-controls' },
				h('label', { class: 'steer-target-label', attrs: { for: targetId } }, t('steerTarget')),
				this._target,
				h(
					'label',
					{ class: 'steer-note-label', title: t('steerNoteOnlyTitle'), attrs: { for: noteId } },
					this._noteOnly,
					t('steerNoteOnly'),
				),
				this._send,
			),
			this._status,
		);
		this.element.hidden = true;
		this._changed();
	}

	/** Shown while the run goes; the picker lists its agents (those stopped or killed cannot be picked). */
	update(state: RunState): void {
		if (state.runId !== this._runId) {
			this._runId = state.runId;
			this._pending = false;
			this._input.value = '';
			this._noteOnly.checked = false;
			setHidden(this._status, true);
		}
		setHidden(this.element, state.status !== 'running');
		if (state.agentOrder !== this._order || state.agents !== this._agents) {
			this._order = state.agentOrder;
			this._agents = state.agents;
			this._renderTargets(state);
		}
		this._changed();
	}

	/** A new snapshot: an answer the page could not take (it was hidden) is not waited for. */
	reset(): void {
		this._pending = false;
		this._changed();
	}

	/** A lane's "Message" button: the box is for that agent now and has the keyboard. */
	messageAgent(agentId: string): void {
		if ([...this._target.options].some((option) => option.value === agentId && !option.disabled)) {
			this._target.value = agentId;
		}
		this._input.focus();
	}

	/** The host's answer to this box's `steer`. */
	result(runId: string, ok: boolean, reason: string | undefined): void {
		if (runId !== this._runId) return;
		this._pending = false;
		if (ok) {
			this._input.value = '';
			this._show(t('steerSent'), false);
		} else {
			this._show(t('steerRefused', reason ?? ''), true);
		}
		this._changed();
	}

	private _show(text: string, refused: boolean): void {
		this._status.dataset['kind'] = refused ? 'refused' : 'sent';
		setText(this._status, text);
		setHidden(this._status, false);
	}

	private _renderTargets(state: RunState): void {
		const chosen = this._target.value;
		const options = [h('option', { text: t('steerAllAgents'), attrs: { value: ALL } })];
		for (const agentId of state.agentOrder) {
			const lane = Object.hasOwn(state.agents, agentId) ? state.agents[agentId] : undefined;
			const option = h('option', { text: agentId, attrs: { value: agentId } });
			option.disabled = !lane || lane.state === 'killed';
			options.push(option);
		}
		this._target.replaceChildren(...options);
		const keep = options.find((option) => option.value === chosen && !option.disabled);
		this._target.value = keep ? chosen : ALL;
	}

	private _changed(): void {
		setDisabled(this._send, this._pending || this._input.value.trim() === '');
	}

	private _submit(): void {
		const text = this._input.value.trim();
		const runId = this._runId;
		if (text === '' || runId === null || this._pending) return;
		this._pending = true;
		setHidden(this._status, true);
		const agentId = this._target.value;
		this._post({
			type: 'steer',
			runId,
			text: text.slice(0, MAX_STEER_CHARS),
			...(agentId === ALL ? {} : { agentId }),
			noteOnly: this._noteOnly.checked,
		});
		this._changed();
	}
}
