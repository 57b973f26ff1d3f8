import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import { baseLines, hunkCounts, type Words } from '../../protocol/hunkWords.js';
import { formatString } from '../../protocol/stringsTable.js';
import { Disposable } from '../common/lifecycle.js';
import { changeStrings } from '../panel/changeStrings.js';
import { changeScheme, parseChangeUri } from './changeUri.js';
import { type HunkLensSpot, hunkLensSpots } from './hunkLensLayout.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

/**
 * Accept and Reject in the diff itself (docs/changes.md), on the proposed side of a file's diff,
 * in the multi-file diff too: per file (Accept File, Reject File) and per hunk. A hunk's Reject or
 * Accept is the panel's checkbox (`selectHunks`): one selection, whichever place it is changed in.
 */
export class HunkLenses extends Disposable implements vscode.CodeLensProvider {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
	/** The panel's table, read once: the display language is fixed for the window's life. */
	private readonly _words: Words = (
		(table) =>
		(key, ...args) =>
			formatString(table[key], args)
	)(changeStrings(vscode));
	readonly onDidChangeCodeLenses = this._onDidChange.event;

	constructor(private readonly _pending: (runId: string) => PendingChangeSet | undefined) {
		super();
		this._register(vscode.languages.registerCodeLensProvider({ scheme: changeScheme }, this));
	}

	/** The selection or the pending files changed: the lenses follow. */
	refresh(): void {
		this._onDidChange.fire();
	}

	provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const parsed = parseChangeUri(document.uri);
		if (parsed?.version !== 'proposed') return [];
		const pending = this._pending(parsed.runId);
		if (!pending?.anyFile(parsed.path)) return [];
		const at = (line: number) => new vscode.Range(line, 0, line, 0);
		const outcome = pending.outcome(parsed.path);
		if (outcome !== undefined) {
			const title =
				outcome === 'accepted'
					? vscode.l10n.t('$(pass-filled) Accepted')
					: vscode.l10n.t('$(circle-slash) Rejected: nothing written');
			return [new vscode.CodeLens(at(0), { title, command: '' })];
		}
		const file = pending.file(parsed.path)!;
		const selected = pending.selected(parsed.path);
		const spots = hunkLensSpots(file, selected);
		const uri = document.uri;
		const top = Math.min(spots[0]?.line ?? 0, Math.max(0, document.lineCount - 1));
		const byUser = new Set(file.hunks.filter((hunk) => hunk.byUser).map((hunk) => hunk.id));
		const chosen = spots.filter((spot) => spot.selected).length;
		const lenses = [
			new vscode.CodeLens(at(top), {
				title:
					spots.length > 1
						? vscode.l10n.t('$(check) Accept File ({0} of {1} changes)', chosen, spots.length)
						: vscode.l10n.t('$(check) Accept File'),
				command: commandIds.acceptFile,
				arguments: [uri],
			}),
			new vscode.CodeLens(at(top), {
				title: vscode.l10n.t('$(close) Reject File'),
				command: commandIds.rejectFile,
				arguments: [uri],
			}),
		];
		// The file's proposal is the user's text (they saved the proposed side): they can go back.
		if (pending.userProposal(parsed.path)) {
			lenses.push(
				new vscode.CodeLens(at(top), {
					title: vscode.l10n.t('$(discard) Discard My Edit'),
					tooltip: vscode.l10n.t('Go back to the team’s proposal for this file'),
					command: commandIds.discardProposalEdit,
					arguments: [uri],
				}),
			);
		}
		// A file with one change (a new file, a deletion) is accepted or rejected as a whole.
		if (spots.length < 2) return lenses;
		for (const spot of spots) {
			const line = Math.min(spot.line, Math.max(0, document.lineCount - 1));
			const where =
				describe(spot, this._words) + (byUser.has(spot.id) ? vscode.l10n.t(', edited by you') : '');
			lenses.push(
				new vscode.CodeLens(at(line), {
					title: spot.selected
						? vscode.l10n.t('$(close) Reject Change ({0})', where)
						: vscode.l10n.t('$(add) Accept Change ({0})', where),
					command: spot.selected ? commandIds.rejectHunk : commandIds.acceptHunk,
					arguments: [uri, spot.id],
				}),
			);
		}
		return lenses;
	}
}

/** "lines 14–16, +3 −1", "at the start, +2": the panel's words for where the change lies. */
function describe(spot: HunkLensSpot, words: Words): string {
	return `${baseLines(spot, words)}, ${hunkCounts(spot)}`;
}
