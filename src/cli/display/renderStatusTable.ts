/**
 * The live per-agent table of the TTY display, as plain lines (no cursor control), so its layout
 * is testable on its own. Colour is optional and never counted in widths.
 */
import type { AgentLane, AgentLaneState, RunState } from '../../protocol/runState.js';
import { budgetSpentText } from './budgetLine.js';
import { plural } from './formatEventLine.js';
import {
	charWidth,
	fitToWidth,
	formatCost,
	formatDuration,
	formatTokens,
	sanitizeTerminalText,
	textWidth,
	truncateToWidth,
} from './terminalText.js';

export interface TableOptions {
	/** Usable columns (the terminal width minus one, so no line ever wraps). */
	readonly width: number;
	/** At most this many lines (the terminal height); lanes beyond it are summarised. */
	readonly maxLines?: number;
	readonly color?: boolean;
}

const stateColors: Record<AgentLaneState, string> = {
	idle: '2',
	streaming: '36',
	answered: '32',
	voted: '34',
	presenting: '35',
	error: '33',
	killed: '31',
	done: '2',
};

interface Column {
	readonly title: string;
	readonly width: number;
	readonly align: 'left' | 'right';
	readonly cell: (lane: AgentLane, state: RunState) => string;
}

function columns(state: RunState): Column[] {
	const lanes = state.agentOrder.map((id) => state.agents[id]!);
	const widest = (values: string[], min: number, max: number) =>
		Math.min(max, Math.max(min, ...values.map((v) => textWidth(v))));
	return [
		{
			title: 'AGENT',
			width: widest(
				lanes.map((l) => l.agentId),
				5,
				16,
			),
			align: 'left',
			cell: (l) => l.agentId,
		},
		{ title: 'MODEL', width: widest(lanes.map(model), 5, 28), align: 'left', cell: model },
		{ title: 'STATE', width: 10, align: 'left', cell: (l) => l.state },
		{ title: 'RND', width: 3, align: 'right', cell: (l) => String(l.round) },
		{ title: 'ANS', width: 3, align: 'right', cell: (l) => String(l.answers.length) },
		{ title: 'VOTES', width: 5, align: 'right', cell: (l, s) => String(votesFor(s, l.agentId)) },
		{
			title: 'TOKENS',
			width: 13,
			align: 'right',
			cell: (l) => `${formatTokens(l.inputTokens)}/${formatTokens(l.outputTokens)}`,
		},
		{ title: 'COST', width: 8, align: 'right', cell: (l) => (l.calls === 0 ? '-' : formatCost(l.costUsd)) },
	];
}

function model(lane: AgentLane): string {
	return lane.provider ? `${lane.provider}/${lane.model}` : lane.model;
}

function votesFor(state: RunState, agentId: string): number {
	return Object.hasOwn(state.tally, agentId) ? state.tally[agentId]! : 0;
}

/** What the lane is doing, in a few words: its error, its last tool, or the tail of its text. */
function activity(lane: AgentLane): string {
	if (lane.state === 'killed') return `killed: ${lane.killedReason ?? ''}`;
	if (lane.state === 'error' && lane.lastError) return `error: ${lane.lastError.message}`;
	const call = lane.toolCalls.at(-1);
	if (call && call.result === null) return `${call.name}…`;
	const tail = sanitizeTerminalText(lane.text.slice(-200)).trim();
	return tail || sanitizeTerminalText(lane.reasoning.slice(-200)).trim();
}

/** The tail of a text is what is new, so keep the end rather than the start. */
function tailToWidth(text: string, width: number): string {
	if (textWidth(text) <= width) return text;
	const chars = [...text];
	let out = '';
	let used = 1; // the leading ellipsis
	for (let i = chars.length - 1; i >= 0; i--) {
		const w = charWidth(chars[i]!.codePointAt(0)!);
		if (used + w > width) break;
		out = chars[i] + out;
		used += w;
	}
	return `…${out}`;
}

/** Renders header, one row per lane and a footer; every line fits `width` columns. */
export function renderStatusTable(state: RunState, options: TableOptions): string[] {
	const { width, color = false } = options;
	const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
	const cols = columns(state);
	const fixed = cols.reduce((sum, c) => sum + c.width + 2, 0);
	const activityWidth = width - fixed;

	const elapsed = formatDuration(state.durationMs ?? state.lastT);
	const question = sanitizeTerminalText(state.question);
	const team = plural(state.agentOrder.length, 'agent');
	const spent = budgetSpentText(state);
	const header = `MassGen ${state.status} · ${team} · ${elapsed}${spent ? ` · ${spent}` : ''} · ${question}`;
	const titles = cols.map((c) => fitToWidth(c.title, c.width, c.align)).join('  ');
	const lines = [
		paint('1', truncateToWidth(header, width)),
		paint('2', truncateToWidth(activityWidth >= 10 ? `${titles}  ACTIVITY` : titles, width)),
	];

	const footer = renderFooter(state);
	const reserved = lines.length + (footer ? 1 : 0);
	const budget = options.maxLines ? Math.max(1, options.maxLines - reserved) : Infinity;
	const lanes = state.agentOrder.map((id) => state.agents[id]!);
	const shown = lanes.length > budget ? lanes.slice(0, budget - 1) : lanes;
	const stateColumn = cols.findIndex((c) => c.title === 'STATE');
	for (const lane of shown) {
		const cells = cols.map((c) => fitToWidth(sanitizeTerminalText(c.cell(lane, state)), c.width, c.align));
		if (activityWidth < 0) {
			// Narrower than the fixed columns: cut the plain row (colour codes must not be cut).
			lines.push(truncateToWidth(cells.join('  '), width));
			continue;
		}
		cells[stateColumn] = paint(stateColors[lane.state], cells[stateColumn]!);
		const doing = activityWidth >= 10 ? activity(lane) : '';
		const tail = doing ? `  ${paint('2', tailToWidth(doing, activityWidth))}` : '';
		lines.push(cells.join('  ') + tail);
	}
	if (shown.length < lanes.length) lines.push(`… ${lanes.length - shown.length} more agents`);
	if (footer) lines.push(truncateToWidth(sanitizeTerminalText(footer), width));
	return lines;
}

function renderFooter(state: RunState): string | null {
	if (state.winner) {
		const { agentId, label } = state.winner;
		const presenting = state.presenter && !state.finalAnswer ? ` · ${state.presenter} presenting` : '';
		return `winner: ${agentId} with ${label} (${plural(votesFor(state, agentId), 'vote')})${presenting}`;
	}
	if (state.error) return `error: ${state.error}`;
	const votes = Object.values(state.votes);
	if (votes.length === 0) return null;
	return `votes: ${votes.map((v) => `${v.voter}→${v.votedFor}`).join(', ')}`;
}
