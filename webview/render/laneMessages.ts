/**
 * The user's messages in a lane: each marked as the user's, to every agent or to this one, a note
 * or not, and delivered (it went into the agent's request) or waiting for the agent's next call.
 * Shown compact and expanded alike: the user sees at once whether the agent has read it.
 */
import { t } from '../strings.js';
import type { UserMessageView } from '../../src/protocol/runState.js';
import { h, icon, setHidden } from './dom.js';

export class LaneMessages {
	readonly element: HTMLOListElement;
	private _messages: readonly UserMessageView[] | undefined;

	constructor(agentId: string) {
		this.element = h('ol', {
			class: 'lane-user-messages',
			attrs: { 'aria-label': t('userMessagesTo', agentId) },
		});
		this.element.hidden = true;
	}

	update(messages: readonly UserMessageView[] | undefined): void {
		if (messages === this._messages) return;
		this._messages = messages;
		setHidden(this.element, !messages?.length);
		this.element.replaceChildren(...(messages ?? []).map(item));
	}
}

function item(message: UserMessageView): HTMLLIElement {
	const facts = [
		message.toAll ? t('messageToAll') : t('messageToThisAgent'),
		...(message.noteOnly ? [t('messageNoteOnly')] : []),
	].join(' · ');
	return h(
		'li',
		{
			class: 'lane-user-message',
			attrs: { 'data-delivered': String(message.delivered), 'data-id': String(message.id) },
		},
		h('span', { class: 'user-message-who' }, icon('account'), t('youSaid')),
		h('span', { class: 'user-message-text', text: message.text, title: message.text }),
		h(
			'span',
			{ class: 'user-message-state', title: facts },
			icon(message.delivered ? 'check' : 'clock'),
			message.delivered ? t('messageDelivered') : t('messagePending'),
		),
	);
}
