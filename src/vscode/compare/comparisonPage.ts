import * as vscode from 'vscode';
import type { Comparison, FileDifference, TeamOutcome } from './comparison.js';

/** What the page links to: command URIs only (the page runs no script). */
export const compareCommands = {
	accept: 'massgen.compare.accept',
	diff: 'massgen.compare.diff',
} as const;

/** Where each team's change set stands now (the change review's answer). */
export type ChangeSetState = 'pending' | 'accepted' | 'discarded' | 'none';

export interface PageInputs {
	/** Names the comparison in the links' arguments. */
	readonly id: string;
	readonly comparison: Comparison;
	readonly changeSet: (runId: string) => ChangeSetState;
	/** A fresh nonce for the one inline style sheet. */
	readonly nonce: string;
}

/**
 * The comparison as a static page: a row per team (winner, status, cost, time, agreement, files
 * changed) with its Accept link, then each pair's files, with a diff link where both changed one.
 * No script: the links are command URIs the panel allows (`enableCommandUris`), and every text
 * from a run (team names, paths, errors) is escaped.
 */
export function comparisonPage(inputs: PageInputs): string {
	const { comparison, nonce } = inputs;
	const csp = `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'`;
	const name = (runId: string) => comparison.outcomes.find((o) => o.runId === runId)?.team ?? runId;
	return `<!DOCTYPE html>
<html lang="${escape(vscode.env.language || 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escape(csp)}">
<title>${escape(vscode.l10n.t('MassGen: Team Comparison'))}</title>
<style nonce="${escape(nonce)}">${style}</style>
</head>
<body>
<h1>${escape(vscode.l10n.t('“{0}” on {1} teams', comparison.question, comparison.outcomes.length + comparison.refused.length))}</h1>
<table id="teams">
<thead><tr>${[
		vscode.l10n.t('Team'),
		vscode.l10n.t('Changes'),
		vscode.l10n.t('Status'),
		vscode.l10n.t('Winner'),
		vscode.l10n.t('Agreement'),
		vscode.l10n.t('Cost'),
		vscode.l10n.t('Tokens'),
		vscode.l10n.t('Time'),
		vscode.l10n.t('Files changed'),
	]
		.map((title) => `<th>${escape(title)}</th>`)
		.join('')}</tr></thead>
<tbody>
${comparison.outcomes.map((outcome) => teamRow(inputs, outcome)).join('\n')}
${comparison.refused.map((run) => `<tr class="refused" data-team="${escape(run.team)}"><td>${escape(run.team)}</td><td colspan="8">${escape(vscode.l10n.t('not run: {0}', run.reason))}</td></tr>`).join('\n')}
</tbody>
</table>
${comparison.differences
	.map(
		(pair) => `<h2>${escape(vscode.l10n.t('{0} and {1}: what each changes', name(pair.a), name(pair.b)))}</h2>
<table class="pair" data-a="${escape(pair.a)}" data-b="${escape(pair.b)}">
<tbody>
${pair.files.map((file) => fileRow(inputs.id, pair.a, pair.b, name, file)).join('\n')}
</tbody>
</table>`,
	)
	.join('\n')}
</body>
</html>
`;
}

function teamRow(inputs: PageInputs, outcome: TeamOutcome): string {
	const state = inputs.changeSet(outcome.runId);
	const files = outcome.files.length
		? outcome.files
				.map(
					(file) =>
						`${escape(file.path)} <span class="add">+${file.added}</span> <span class="del">−${file.removed}</span>`,
				)
				.join('<br>')
		: escape(vscode.l10n.t('none'));
	const cells = [
		escape(outcome.team),
		changesCell(inputs.id, outcome.runId, state),
		escape(outcome.error ? `${outcome.status}: ${outcome.error}` : outcome.status),
		escape(outcome.winner ? `${outcome.winner.agentId} (${outcome.winner.label})` : '—'),
		escape(
			outcome.agreement
				? vscode.l10n.t('{0} of {1} votes', outcome.agreement.forWinner, outcome.agreement.voters)
				: '—',
		),
		escape(outcome.costUsd === null ? vscode.l10n.t('unknown') : `$${outcome.costUsd.toFixed(4)}`),
		escape(`${outcome.tokens.input} / ${outcome.tokens.output}`),
		escape(seconds(outcome.durationMs)),
		files,
	];
	return `<tr data-run="${escape(outcome.runId)}">${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
}

function changesCell(id: string, runId: string, state: ChangeSetState): string {
	switch (state) {
		case 'pending':
			return `<a class="accept" href="${commandHref(compareCommands.accept, [id, runId])}">${escape(vscode.l10n.t("Accept This Team's Changes"))}</a>`;
		case 'accepted':
			return escape(vscode.l10n.t('accepted'));
		case 'discarded':
			return escape(vscode.l10n.t('discarded'));
		case 'none':
			return escape(vscode.l10n.t('nothing to review'));
	}
}

function fileRow(
	id: string,
	a: string,
	b: string,
	name: (runId: string) => string,
	file: FileDifference,
): string {
	const what = {
		a: vscode.l10n.t('only {0} changes it', name(a)),
		b: vscode.l10n.t('only {0} changes it', name(b)),
		both: vscode.l10n.t('both change it, differently'),
		same: vscode.l10n.t('both change it the same way'),
	}[file.side];
	const link =
		file.side === 'same'
			? ''
			: `<a class="diff" href="${commandHref(compareCommands.diff, [id, a, b, file.path])}">${escape(vscode.l10n.t('Compare'))}</a>`;
	return `<tr data-path="${escape(file.path)}" data-side="${file.side}"><td>${escape(file.path)}</td><td>${escape(what)}</td><td>${link}</td></tr>`;
}

function commandHref(command: string, args: readonly string[]): string {
	return escape(`command:${command}?${encodeURIComponent(JSON.stringify(args))}`);
}

function seconds(ms: number): string {
	return vscode.l10n.t('{0} s', (ms / 1000).toFixed(1));
}

function escape(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

const style = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 16px; }
h1 { font-size: 1.2em; font-weight: 600; }
h2 { font-size: 1.05em; font-weight: 600; margin-top: 1.6em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--vscode-panel-border, #8884); }
th { font-weight: 600; }
a { color: var(--vscode-textLink-foreground); }
a.accept { white-space: nowrap; }
.add { color: var(--vscode-gitDecoration-addedResourceForeground, #587c0c); }
.del { color: var(--vscode-gitDecoration-deletedResourceForeground, #ad0707); }
.refused td { color: var(--vscode-descriptionForeground); }
`;
