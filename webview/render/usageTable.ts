/**
 * The header's usage by agent: per agent its input, output and cached input tokens and its cost,
 * then the run's total and, with a run budget, what it may spend. Kept current while the run goes
 * (each `usage` and `call-aborted` event changes the lanes it reads); rows are rewritten in place.
 */
import { t } from '../strings.js';
import type { AgentLane, RunState } from '../../src/protocol/runState.js';
import type { ViewStateStore } from '../viewState.js';
import { collapsible } from './collapsible.js';
import { h, setText } from './dom.js';
import { formatCost, formatTokens } from './format.js';
import { costText, sumsOf, type Sums } from './usageSums.js';

export class UsageTable {
	readonly element: HTMLDetailsElement;
	private readonly _rows: HTMLTableSectionElement;
	private readonly _total: HTMLTableRowElement;
	private readonly _budget: HTMLParagraphElement;
	private _order: readonly string[] = [];

	constructor(viewState: ViewStateStore) {
		const parts = collapsible({
			key: 'usage-by-agent',
			defaultOpen: false,
			viewState,
			class: 'usage-by-agent',
			summary: [h('span', { text: t('usageByAgent') })],
		});
		this._rows = h('tbody');
		this._total = h('tr', { class: 'usage-total' });
		const head = h(
			'tr',
			{},
			...[t('usageAgent'), t('usageInput'), t('usageOutput'), t('usageCached'), t('usageCost')].map((text) =>
				h('th', { text, attrs: { scope: 'col' } }),
			),
		);
		this._budget = h('p', { class: 'usage-budget' });
		this._budget.hidden = true;
		parts.body.append(
			h(
				'table',
				{ class: 'usage-table', attrs: { 'aria-label': t('usageByAgent') } },
				h('thead', {}, head),
				this._rows,
				h('tfoot', {}, this._total),
			),
			this._budget,
		);
		this.element = parts.details;
	}

	update(state: RunState): void {
		if (state.agentOrder !== this._order) {
			this._order = state.agentOrder;
			this._rows.replaceChildren(...state.agentOrder.map((agentId) => row(agentId)));
		}
		const lanes: AgentLane[] = [];
		state.agentOrder.forEach((agentId, index) => {
			const lane = Object.hasOwn(state.agents, agentId) ? state.agents[agentId] : undefined;
			if (!lane) return;
			lanes.push(lane);
			fill(this._rows.rows[index], agentId, sumsOf([lane]));
		});
		const total = sumsOf(lanes);
		fill(this._total, t('usageTotal'), total);
		const costCap = state.budget?.maxCostUsd ?? null;
		const tokenCap = state.budget?.maxTokens ?? null;
		const caps = [
			costCap === null ? '' : t('usageBudgetCost', costText(total), formatCost(costCap)),
			tokenCap === null
				? ''
				: t('usageBudgetTokens', formatTokens(total.input + total.output), formatTokens(tokenCap)),
		].filter(Boolean);
		this._budget.hidden = caps.length === 0;
		setText(this._budget, caps.join(' · '));
	}
}

function row(agentId: string): HTMLTableRowElement {
	const tr = h('tr', { attrs: { 'data-agent': agentId } });
	fill(tr, agentId, { input: 0, output: 0, cached: 0, cost: 0, unpriced: 0 });
	return tr;
}

/** Writes a row's cells (created the first time), only where the text changed. */
function fill(tr: HTMLTableRowElement | undefined, name: string, sums: Sums): void {
	if (!tr) return;
	const texts = [
		name,
		formatTokens(sums.input),
		formatTokens(sums.output),
		formatTokens(sums.cached),
		costText(sums),
	];
	if (tr.cells.length === 0) {
		tr.append(h('th', { attrs: { scope: 'row' } }), ...texts.slice(1).map(() => h('td')));
	}
	texts.forEach((text, i) => setText(tr.cells[i]!, text));
	// Exact counts on hover (the cells are rounded: 12.3k).
	const exact = [sums.input, sums.output, sums.cached].map((n) => n.toLocaleString('en-US'));
	exact.forEach((text, i) => {
		const cell = tr.cells[i + 1]!;
		if (cell.title !== text) cell.title = text;
	});
}
