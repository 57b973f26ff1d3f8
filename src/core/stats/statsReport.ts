/**
 * The leaderboard as a report: a plain-text table (`massgen stats`) or Markdown (the editor's Show
 * Team Stats), one renderer for both so they show the same figures. Names were made one-line and
 * control-free when read (`statsText.ts`); Markdown escapes them so a model name cannot add links,
 * emphasis or table cells.
 */
import { acceptanceOf, type Leaderboard, type StatsRow } from './leaderboard.js';
import { percent, usd } from './suggestTeam.js';
import { shownName } from './statsText.js';

export type StatsReportFormat = 'text' | 'markdown';

interface Column {
	readonly title: string;
	readonly value: (row: StatsRow) => string;
	/** Text to the left (names); figures are right-aligned in the text table. */
	readonly left?: true;
}

const figures: readonly Column[] = [
	{ title: 'Runs', value: (row) => String(row.runs) },
	{ title: 'Answers', value: (row) => String(row.answers) },
	{ title: 'Won', value: (row) => String(row.wins) },
	{ title: 'Votes got', value: (row) => String(row.votesReceived) },
	{ title: 'Agreed', value: (row) => `${row.agreedWithFinal}/${row.votedRuns}` },
	{ title: 'Accepted', value: acceptedCell },
	{ title: 'Unchanged', value: (row) => String(row.acceptedUnchanged) },
	{ title: 'Rejected', value: (row) => String(row.rejected) },
	{ title: 'Reverted', value: (row) => String(row.reverted) },
	{ title: 'Runner-up hunks', value: (row) => String(row.runnerUpHunksTaken) },
	{ title: '$/run', value: (row) => (row.costPerRunUsd === null ? '?' : usd(row.costPerRunUsd)) },
	{ title: 'Time/run', value: (row) => seconds(row.msPerRun) },
];

/** The whole report: a summary line, models, agents, teams, and the runs skipped. */
export function statsReport(board: Leaderboard, format: StatsReportFormat): string {
	const markdown = format === 'markdown';
	const out: string[] = [];
	out.push(markdown ? `# MassGen team stats\n\n${summary(board)}` : summary(board));
	if (board.runs > 0) {
		out.push(section('Models', 'Model', board.models, [], format));
		out.push(section('Agents', 'Agent', board.agents, [], format));
		out.push(
			section(
				'Teams',
				'Team',
				board.teams,
				[
					{
						title: '$/accepted change',
						value: (row) => {
							const cost = (row as (typeof board.teams)[number]).costPerAcceptedChangeUsd;
							return cost === null ? '?' : usd(cost);
						},
					},
				],
				format,
			),
		);
	}
	if (board.skipped.length > 0) {
		const heading = `Skipped ${board.skipped.length === 1 ? '1 run' : `${board.skipped.length} entries`}:`;
		const lines = board.skipped.map(({ runId, reason }) => {
			const text = `${shownName(runId)}: ${reason.replace(/[\u0000-\u001f\u007f-\u009f\u2028-\u202e\u2060-\u2069]/g, '?')}`;
			return markdown ? `- ${escapeMarkdown(text)}` : `  ${text}`;
		});
		out.push(markdown ? `## ${heading}\n\n${lines.join('\n')}` : `${heading}\n${lines.join('\n')}`);
	}
	return `${out.join('\n\n')}\n`;
}

function summary(board: Leaderboard): string {
	const since = board.since ? ` since ${board.since}` : '';
	if (board.runs === 0) return `No finished runs made on this machine${since}.`;
	const rate =
		board.acceptanceRate === null
			? 'no change decided yet'
			: `you accepted ${percent(board.acceptanceRate)} of the decided changes`;
	return (
		`${board.runs} ${board.runs === 1 ? 'run' : 'runs'}${since}; ${rate}. ` +
		`Rows with fewer than ${board.minRuns} runs are not ranked.`
	);
}

function section(
	title: string,
	nameTitle: string,
	rows: readonly StatsRow[],
	extra: readonly Column[],
	format: StatsReportFormat,
): string {
	let rank = 0;
	const columns: Column[] = [
		{ title: '#', value: (row) => (row.ranked ? String(++rank) : '-') },
		{
			title: nameTitle,
			value: (row) => (row.ranked ? row.label : `${row.label} (too few runs)`),
			left: true,
		},
		...figures,
		...extra,
	];
	const cells = rows.map((row) => columns.map((column) => column.value(row)));
	if (format === 'markdown') {
		const line = (values: readonly string[]) => `| ${values.map(escapeMarkdown).join(' | ')} |`;
		const rule = `|${columns.map((column) => (column.left ? ' --- ' : ' ---: ')).join('|')}|`;
		return [`## ${title}`, '', line(columns.map((column) => column.title)), rule, ...cells.map(line)].join(
			'\n',
		);
	}
	const widths = columns.map((column, i) =>
		Math.max(column.title.length, ...cells.map((row) => [...row[i]!].length)),
	);
	const pad = (values: readonly string[]) =>
		values
			.map((value, i) => {
				const fill = ' '.repeat(widths[i]! - [...value].length);
				return columns[i]!.left ? value + fill : fill + value;
			})
			.join('  ')
			.trimEnd();
	return [`${title}:`, pad(columns.map((column) => column.title)), ...cells.map(pad)].join('\n');
}

/** `3/4 (75%)`: winning changes accepted (whole or in part) of those decided; `-` when none was. */
function acceptedCell(row: StatsRow): string {
	const rate = acceptanceOf(row);
	if (rate === null) return '-';
	const accepted = row.acceptedUnchanged + row.partlyAccepted;
	return `${accepted}/${accepted + row.rejected + row.reverted} (${percent(rate)})`;
}

function seconds(ms: number): string {
	return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

/**
 * Every character Markdown gives a meaning to, backslash-escaped: `|` (table cells), `$` (math), and
 * `:` `@` `.` so no URL or address in a name is linked by the preview's linkify.
 */
function escapeMarkdown(text: string): string {
	return text.replace(/[\\`*_{}[\]()<>#+\-.!|~&$:@]/g, (char) => `\\${char}`);
}
