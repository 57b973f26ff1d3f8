/**
 * The run budget from the editor's settings (`massgen.maxCostUsd`, `massgen.maxTokens`; the
 * config's `permissions.max_cost_usd` counts too, the lower wins) and the estimate's question:
 * over `massgen.confirmCostAboveUsd` a modal with the figure and how it was made, once per run.
 * Each setting is the lowest of its user, workspace and folder values: a cloned repository's
 * settings can tighten the budget or the question, never loosen the user's.
 */
import * as vscode from 'vscode';
import type { BudgetCaps } from '../../core/orchestrator/spendGuard.js';
import type { CapRequest } from '../../core/permissions/runBudget.js';
import { defaultConfirmAboveUsd, formatUsd, type CostEstimate } from '../../core/run/costEstimate.js';
import type { UserBudget } from '../../core/run/runBudgetOf.js';
import { readLowestNumber, settings } from '../common/settings.js';

/** What `runSession` takes: the caps and the estimate's question. */
export function budgetOptions(folder: vscode.Uri): {
	budget: UserBudget;
	confirmEstimate: (estimate: CostEstimate, caps: BudgetCaps | null) => Promise<boolean>;
} {
	const cap = (name: 'maxCostUsd' | 'maxTokens'): CapRequest | undefined => {
		const limit = readLowestNumber(name, folder, Number.MIN_VALUE);
		return limit === undefined ? undefined : { limit, source: settings[name].key };
	};
	const maxCostUsd = cap('maxCostUsd');
	const maxTokens = cap('maxTokens');
	const above = readLowestNumber('confirmCostAboveUsd', folder, 0) ?? defaultConfirmAboveUsd;
	return {
		budget: { ...(maxCostUsd ? { maxCostUsd } : {}), ...(maxTokens ? { maxTokens } : {}) },
		confirmEstimate: (estimate, caps) => (estimate.usd < above ? Promise.resolve(true) : ask(estimate, caps)),
	};
}

/** Start Run or nothing: Escape and the close button start nothing. */
async function ask(estimate: CostEstimate, caps: BudgetCaps | null): Promise<boolean> {
	const cap = caps?.maxCostUsd;
	const budget = cap
		? vscode.l10n.t('The run stops when it reaches {0} ({1}).', formatUsd(cap.limit), cap.source)
		: vscode.l10n.t('Set {0} to cap what a run may spend.', settings.maxCostUsd.key);
	const start = vscode.l10n.t('Start Run');
	const choice = await vscode.window.showWarningMessage(
		vscode.l10n.t('MassGen: this run is estimated at {0}.', formatUsd(estimate.usd)),
		{ modal: true, detail: `${estimate.basis}. ${budget}` },
		start,
	);
	return choice === start;
}
