import type { AnswerChanges, ReviewChangeSet, ReviewFile } from '../../core/changes/changeSet.js';
import { executableReason } from '../../core/changes/executablePaths.js';
import { type Hunk, hunkDiffLines } from '../../core/changes/hunks.js';
import {
	type ChangeFileView,
	type ChangeSetView,
	type HunkView,
	MAX_HUNK_LINES,
	type UserEdit,
} from '../../protocol/changeSetView.js';

export interface ViewInput {
	readonly set: ReviewChangeSet;
	/** Files still pending (accepted or rejected ones are gone). */
	readonly files: readonly ReviewFile[];
	readonly answers: readonly AnswerChanges[];
	readonly selected: (path: string) => ReadonlySet<string>;
	readonly userEdit: (path: string) => UserEdit;
	/** Whether the user edited the file's proposal (its hunks are then the user's text's). */
	readonly edited?: (path: string) => boolean;
}

/** The panel's view of the pending change set (plain JSON, 1-based lines). */
export function toChangeSetView(input: ViewInput): ChangeSetView {
	const { set } = input;
	const labelOf = (agentId: string) =>
		input.answers.find((answer) => answer.agentId === agentId)?.label ?? agentId;
	return {
		runId: set.runId,
		winner: set.winner,
		agentCount: set.agentCount,
		files: input.files.map((file): ChangeFileView => {
			const selected = input.selected(file.path);
			const hunks = file.hunks.map((hunk) => {
				if (hunk.byUser) {
					return { ...hunkView(hunk, hunk.id, selected.has(hunk.id), [], [], []), byUser: true as const };
				}
				const winner = hunk.from ? [] : set.winner ? [set.winner] : [];
				const from = hunk.from ?? [];
				const agents = [
					...winner.map((one) => one.agentId),
					...hunk.agreeing,
					...from.map((one) => one.agentId),
				];
				const sources = [
					...winner.map((one) => one.label),
					...hunk.agreeing.map(labelOf),
					...from.map((one) => one.label),
				];
				const view = hunkView(hunk, hunk.id, selected.has(hunk.id), agents, sources, []);
				return hunk.similar.length > 0 ? { ...view, similar: hunk.similar } : view;
			});
			const alternatives = file.alternatives.map((alt) =>
				hunkView(
					alt,
					alt.id,
					selected.has(alt.id),
					alt.from.map((from) => from.agentId),
					alt.from.map((from) => from.label),
					alt.replaces,
				),
			);
			const chosen: Hunk[] = [...file.hunks, ...file.alternatives].filter((hunk) => selected.has(hunk.id));
			const runsCode = executableFlag(file)?.kind;
			return {
				...(runsCode ? { runsCode } : {}),
				path: file.path,
				kind: file.kind,
				renamedFrom: file.renamedFrom,
				added: chosen.reduce((sum, hunk) => sum + hunk.newLines, 0),
				removed: chosen.reduce((sum, hunk) => sum + hunk.oldLines, 0),
				userEdit: input.userEdit(file.path),
				...(input.edited?.(file.path) ? { edited: true as const } : {}),
				hunks,
				alternatives,
			};
		}),
	};
}

function hunkView(
	hunk: Hunk,
	id: string,
	selected: boolean,
	agents: readonly string[],
	sources: readonly string[],
	replaces: readonly string[],
): HunkView {
	const lines = hunkDiffLines(hunk);
	return {
		id,
		oldStart: hunk.oldStart + 1,
		oldLines: hunk.oldLines,
		newStart: hunk.newStart + 1,
		newLines: hunk.newLines,
		lines: lines.slice(0, MAX_HUNK_LINES),
		truncated: Math.max(0, lines.length - MAX_HUNK_LINES),
		selected,
		agents,
		sources,
		replaces,
	};
}

/** Whether other tools run or obey the file the change writes (`executablePaths.ts`). */
export function executableFlag(file: ReviewFile): ReturnType<typeof executableReason> {
	return executableReason(file.path, file.kind === 'add' ? null : file.base, file.final, file.landsAt);
}
