import type { l10n } from 'vscode';

/** The panel's texts for Execute Plan's progress (`webview/render/planProgress.ts`; see `panelStrings.ts`). */
export function planStrings(vscode: { readonly l10n: Pick<typeof l10n, 't'> }) {
	return {
		planStepOf: vscode.l10n.t('Plan: step {0} of {1} — {2}'),
		planAllSteps: vscode.l10n.t('Plan: all {0} steps as one run — {1}'),
		planEnded: vscode.l10n.t('Plan: {0} — {1} of {2} steps done'),
		planSteps: vscode.l10n.t('Plan steps'),
		planStepTodo: vscode.l10n.t('to do'),
		planStepRunning: vscode.l10n.t('running'),
		planStepReview: vscode.l10n.t('waiting for your review'),
		planStepDone: vscode.l10n.t('done'),
		planStepStopped: vscode.l10n.t('stopped'),
	};
}
