import * as vscode from 'vscode';
import type { PlanRunRecord } from '../../contract/plan.js';
import { questionLine } from '../common/runName.js';

/**
 * A plan's run as the Runs view names it: `planRunLabel`'s words ("Plan: <task>", "Plan step 2 of
 * 5: <title>", "Plan, all 5 steps"), in the display language (the contract's are English, for the
 * CLI), on one line of at most `max` characters.
 */
export function planRunName(record: PlanRunRecord, max = 80): string {
	switch (record.kind) {
		case 'planning':
			return questionLine(vscode.l10n.t('Plan: {0}', questionLine(record.task, max)), max);
		case 'step':
			return questionLine(
				vscode.l10n.t('Plan step {0} of {1}: {2}', record.step, record.of, record.title),
				max,
			);
		case 'all':
			return vscode.l10n.t('Plan, all {0} steps', record.of);
	}
}
