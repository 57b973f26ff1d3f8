import * as vscode from 'vscode';
import type { StatsWords } from './statsTree.js';

/** The Stats rows' texts in the display language (German in l10n/bundle.l10n.de.json). */
export function statsWords(): StatsWords {
	return {
		stats: vscode.l10n.t('Stats'),
		noRuns: vscode.l10n.t('no runs on this machine yet'),
		readFailed: (error) => vscode.l10n.t('could not read the runs: {0}', error),
		runs: (count) => (count === 1 ? vscode.l10n.t('1 run') : vscode.l10n.t('{0} runs', count)),
		won: (count) => vscode.l10n.t('won {0}', count),
		accepted: (accepted, of) => vscode.l10n.t('accepted {0} of {1}', accepted, of),
		perRun: (cost) => vscode.l10n.t('{0}/run', cost),
		tooFew: vscode.l10n.t('too few to rank'),
		acceptanceRate: (percent) => vscode.l10n.t('you accepted {0}%', percent),
		skipped: (count) =>
			count === 1 ? vscode.l10n.t('1 run not counted') : vscode.l10n.t('{0} runs not counted', count),
		rank: (rank) => vscode.l10n.t('rank {0}', rank),
		unranked: (runs, minRuns) => vscode.l10n.t('not ranked: {0} of the {1} runs a rank needs', runs, minRuns),
		answers: (runs, answers) => vscode.l10n.t('Runs: {0} · answers: {1}', runs, answers),
		wins: (wins, runs) => vscode.l10n.t('Won: {0} of {1} runs', wins, runs),
		votes: (votes) => vscode.l10n.t('Votes received: {0}', votes),
		agreed: (agreed, voted) =>
			vscode.l10n.t('Agreed with the final vote: {0} of the {1} runs it voted in', agreed, voted),
		changes: (wins, unchanged, partly, rejected, reverted) =>
			vscode.l10n.t(
				'Winning changes: {0} · accepted unchanged {1} · partly accepted {2} · rejected {3} · reverted {4}',
				wins,
				unchanged,
				partly,
				rejected,
				reverted,
			),
		runnerUp: (hunks) => vscode.l10n.t('Runner-up hunks taken from it: {0}', hunks),
		cost: (perRun, time) => vscode.l10n.t('Cost per run: {0} · time per run: {1}', perRun, time),
		noPrice: vscode.l10n.t('no price'),
		boardTooltip: (runs, minRuns, since) =>
			since === null
				? vscode.l10n.t(
						'{0} runs made on this machine in this folder. A model is ranked after {1} runs. Click for the report.',
						runs,
						minRuns,
					)
				: vscode.l10n.t(
						'{0} runs made on this machine in this folder since {2}. A model is ranked after {1} runs. Click for the report.',
						runs,
						minRuns,
						since,
					),
		skippedMore: (count) => vscode.l10n.t('… and {0} more', count),
	};
}
