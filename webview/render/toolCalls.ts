/**
 * A lane's tool calls: one collapsible row per call (name, main argument, status), with the
 * arguments and result filled in only when opened.
 */
import { t } from '../strings.js';
import type { ToolCallView } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { collapsible, type Collapsible } from './collapsible.js';
import { append, h, icon, setText } from './dom.js';
import { truncate } from './format.js';

const maxArgsChars = 4_000;
const maxResultChars = 8_000;

class ToolCallItem {
	readonly parts: Collapsible;
	private readonly _status: HTMLSpanElement;
	private _call: ToolCallView;
	private _filledWith: ToolCallView | null = null;

	constructor(call: ToolCallView, key: string, viewState: ViewStateStore) {
		this._call = call;
		this._status = h('span', { class: 'tool-status' });
		const main = mainArgument(call);
		this.parts = collapsible({
			key,
			defaultOpen: false,
			viewState,
			class: 'tool-call',
			summary: [
				icon('tools'),
				h('span', { class: 'tool-name', text: call.name }),
				main ? h('span', { class: 'tool-arg', text: main, title: main }) : null,
				call.phase === 'presentation' ? h('span', { class: 'tag', text: t('presentationTag') }) : null,
				this._status,
			],
			onToggle: (open) => {
				if (open) this._fill();
			},
		});
		this._renderStatus();
		if (this.parts.details.open) this._fill();
	}

	update(call: ToolCallView): void {
		if (call === this._call) return;
		this._call = call;
		this._renderStatus();
		if (this.parts.details.open) this._fill();
	}

	private _renderStatus(): void {
		const { result } = this._call;
		const look = result === null ? 'running' : result.isError ? 'error' : result.planned ? 'planned' : 'ok';
		if (this._status.dataset['status'] === look) return;
		this._status.dataset['status'] = look;
		this._status.replaceChildren(...statusParts[look]());
		this.parts.details.classList.toggle('is-error', look === 'error');
	}

	private _fill(): void {
		if (this._filledWith === this._call) return;
		this._filledWith = this._call;
		const call = this._call;
		const args = JSON.stringify(call.args, null, 2) ?? '{}';
		this.parts.body.replaceChildren();
		append(
			this.parts.body,
			h('div', { class: 'tool-label', text: t('arguments') }),
			h('pre', { class: 'code-block', text: truncate(args, maxArgsChars) }),
			h('div', {
				class: 'tool-label',
				text: call.result === null ? t('resultRunning') : call.result.isError ? t('error2') : t('result'),
			}),
			call.result === null
				? null
				: h('pre', {
						class: `code-block${call.result.isError ? ' is-error' : ''}`,
						text: truncate(call.result.text, maxResultChars),
					}),
		);
	}
}

/** The most telling argument for the summary line (path, pattern, agent id…). */
export function mainArgument(call: ToolCallView): string {
	for (const name of ['path', 'pattern', 'agent_id', 'command', 'url', 'query']) {
		const value = call.args[name];
		if (typeof value === 'string' && value.length > 0) {
			return value.length > 80 ? `${value.slice(0, 79)}…` : value;
		}
	}
	return '';
}

export class ToolCallsView {
	readonly element: HTMLElement;
	private readonly _list: HTMLDivElement;
	private readonly _items = new Map<string, ToolCallItem>();
	private readonly _count: HTMLSpanElement;
	private _calls: readonly ToolCallView[] = [];

	constructor(
		private readonly _agentId: string,
		private readonly _viewState: ViewStateStore,
	) {
		this._count = h('span', { class: 'count' });
		const parts = collapsible({
			key: `tools:${_agentId}`,
			defaultOpen: true,
			viewState: _viewState,
			class: 'lane-group',
			summary: [h('span', { text: t('toolCalls') }), this._count],
		});
		this._list = h('div', { class: 'tool-list' });
		parts.body.append(this._list);
		this.element = parts.details;
		this.element.hidden = true;
	}

	update(calls: readonly ToolCallView[]): void {
		if (calls === this._calls) return;
		this._calls = calls;
		this.element.hidden = calls.length === 0;
		setText(this._count, String(calls.length));
		const seen = new Set<string>();
		for (const call of calls) {
			// Call ids are unique in practice; a repeated id (a replayed turn) gets its own row.
			let id = call.callId;
			for (let n = 2; seen.has(id); n++) id = `${call.callId}#${n}`;
			seen.add(id);
			const existing = this._items.get(id);
			if (existing) {
				existing.update(call);
				continue;
			}
			const item = new ToolCallItem(call, `tool:${this._agentId}:${id}`, this._viewState);
			this._items.set(id, item);
			this._list.append(item.parts.details);
		}
		for (const [id, item] of this._items) {
			if (seen.has(id)) continue;
			item.parts.details.remove();
			this._items.delete(id);
		}
	}
}

/** The status mark of each look; a planned call (planning mode) was described, not run. */
const statusParts: Record<'running' | 'error' | 'planned' | 'ok', () => Node[]> = {
	running: () => [
		icon('loading', 'codicon-modifier-spin'),
		h('span', { class: 'sr-only', text: t('callRunning') }),
	],
	error: () => [icon('error'), h('span', { class: 'sr-only', text: t('callFailed') })],
	planned: () => [icon('checklist'), h('span', { class: 'tool-planned', text: t('plannedNotRun') })],
	ok: () => [icon('check'), h('span', { class: 'sr-only', text: t('callSucceeded') })],
};
