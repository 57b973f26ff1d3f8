import * as vscode from 'vscode';
import type { PrepareRefusal } from '../../core/run/prepareRun.js';
import type { ShownQuestions } from '../common/shownQuestions.js';
import { missingConfigMessage } from '../config/teamConfigSetting.js';
import { memberChatModels } from '../lm/memberChatModels.js';
import { type NoModelChoice, noModelReason, offerNoModel } from './noModelOffer.js';
import { reportTeamProblem } from './runMessages.js';
import type { RunRefusal } from './runTypes.js';

/** Why a run did not start, in the words `RunRefusal.reason` carries (`RunController`'s refusals). */

export const cancelled = (): RunRefusal => ({
	refused: 'cancelled',
	reason: vscode.l10n.t('the run was cancelled before it started'),
});

export const dequeued = (): RunRefusal => ({
	refused: 'cancelled',
	reason: vscode.l10n.t('it was removed from the queue'),
});

/** Too many runs wait already (`RunQueue`'s `full`): refused, and the user told. */
export function queueFull(waiting: number, log: vscode.LogOutputChannel): RunRefusal {
	const reason = vscode.l10n.t(
		'{0} runs are waiting in the queue already; start or remove one, or wait for one to start',
		waiting,
	);
	log.warn(`run refused: ${waiting} runs waiting`);
	void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: {0}', reason));
	return { refused: 'error', reason };
}

export interface PrepareRefusalDeps {
	readonly log: vscode.LogOutputChannel;
	readonly redact: (text: string) => string;
	readonly lmModels?: () => Promise<readonly unknown[]>;
	readonly questions?: ShownQuestions;
	/** The no-model offer's answer: the question runs again, on the demo team or as asked. */
	readonly runChosen: (choice: NoModelChoice) => void;
}

/**
 * Why the run did not start, told the user (the config's problem, a follow-up of no readable
 * turn). No model at all is not a config problem: the user is offered one and the question waits.
 */
export function reportPrepareRefusal(refusal: PrepareRefusal, deps: PrepareRefusalDeps): RunRefusal {
	const { log, redact } = deps;
	switch (refusal.refused) {
		case 'config': {
			const report = {
				problem: 'no-config',
				file: refusal.file,
				message: missingConfigMessage(refusal.file),
				issues: [],
			} as const;
			return { refused: 'config', reason: reportTeamProblem(report, redact) };
		}
		case 'team': {
			const { problem, file, issues, kind } = refusal.resolution;
			if (problem === 'no-agents' && kind === 'default') {
				offerNoModel(
					{
						lmModels: deps.lmModels ?? memberChatModels,
						log,
						...(deps.questions ? { questions: deps.questions } : {}),
					},
					deps.runChosen,
				);
				return { refused: 'config', reason: noModelReason() };
			}
			return { refused: 'config', reason: reportTeamProblem({ problem, file, issues }, redact) };
		}
		case 'follow-up':
			log.error(refusal.message);
			void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}', redact(refusal.message)));
			return { refused: 'error', reason: redact(refusal.message) };
		case 'trust':
			return cancelled();
	}
	return refusal satisfies never;
}
