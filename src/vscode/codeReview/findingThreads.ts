import * as vscode from 'vscode';
import type { MergedFinding } from '../../core/codeReview/agreement.js';
import { contextKeys } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';

/** One finding shown as a comment thread (what tests and the API see). */
export interface FindingThread {
	readonly uri: vscode.Uri;
	/** 1-based, inclusive. */
	readonly line: number;
	readonly endLine: number;
	readonly severity: MergedFinding['severity'];
	readonly title: string;
	readonly message: string;
	readonly agents: readonly string[];
	/** Agents whose answers were counted. */
	readonly of: number;
	readonly label: string;
	/** Raised by one agent of several: shown apart (collapsed, marked "single agent"). */
	readonly single: boolean;
	/** The comment thread itself (the argument Dismiss Finding takes). */
	readonly thread: vscode.CommentThread;
}

const severityTitle = (): Record<MergedFinding['severity'], string> => ({
	high: vscode.l10n.t('High'),
	medium: vscode.l10n.t('Medium'),
	low: vscode.l10n.t('Low'),
});

/** "High · raised by 2 of 3 agents", with the marks a finding shown apart or left out carries. */
export function findingLabel(finding: MergedFinding, of: number, single = false): string {
	const raised =
		of === 1
			? vscode.l10n.t('raised by {0} of 1 agent', finding.agents.length)
			: vscode.l10n.t('raised by {0} of {1} agents', finding.agents.length, of);
	const marks = [
		...(single ? [vscode.l10n.t('single agent')] : []),
		...(finding.inWinner ? [] : [vscode.l10n.t('not in the winning review')]),
	];
	return [severityTitle()[finding.severity], raised, ...marks].join(' · ');
}

/**
 * A thread's text: the title, the team's message, then each other agent's own words ("beta: …") when
 * they differ from it. Plain text, never Markdown.
 */
export function findingBody(finding: MergedFinding): string {
	const others = finding.reasons.filter((reason) => reason.message !== finding.message);
	return [
		finding.title,
		finding.message === finding.title ? undefined : finding.message,
		...others.map((reason) => `${reason.agentId}: ${reason.message}`),
	]
		.filter((part) => part !== undefined)
		.join('\n\n');
}

/**
 * The review findings of Review Selection and Review Changes as native comment threads, in one
 * comment controller (`massgen-review`): read-only, the model's text as plain text.
 */
export class FindingThreads extends Disposable {
	private readonly _controller = this._register(
		vscode.comments.createCommentController('massgen-review', vscode.l10n.t('MassGen review')),
	);
	private readonly _threads = new Map<vscode.CommentThread, FindingThread>();

	constructor() {
		super();
		this._controller.options = {
			placeHolder: vscode.l10n.t('MassGen findings are read-only'),
			prompt: vscode.l10n.t('MassGen review'),
		};
		this._register({ dispose: () => this.clear() });
	}

	/** Every finding thread currently shown. */
	threads(): FindingThread[] {
		return [...this._threads.values()];
	}

	/**
	 * A thread on `doc`'s lines of `finding` (cut to the document). `single`: raised by one agent of
	 * several, so it starts collapsed and says so.
	 */
	add(
		doc: vscode.TextDocument,
		finding: MergedFinding,
		of: number,
		single = false,
	): FindingThread | undefined {
		if (finding.line > doc.lineCount) return undefined;
		const endLine = Math.min(finding.endLine, doc.lineCount);
		const range = new vscode.Range(finding.line - 1, 0, endLine - 1, doc.lineAt(endLine - 1).text.length);
		const label = findingLabel(finding, of, single);
		// A plain-string body is shown as text: nothing the model wrote is rendered as Markdown.
		const comment: vscode.Comment = {
			body: findingBody(finding),
			mode: vscode.CommentMode.Preview,
			author: { name: 'MassGen' },
			contextValue: 'massgen-finding',
			label: finding.agents.join(', '),
		};
		const thread = this._controller.createCommentThread(doc.uri, range, [comment]);
		thread.label = label;
		thread.canReply = false;
		thread.contextValue = 'massgen-finding';
		thread.collapsibleState = single
			? vscode.CommentThreadCollapsibleState.Collapsed
			: vscode.CommentThreadCollapsibleState.Expanded;
		const shown: FindingThread = {
			uri: doc.uri,
			line: finding.line,
			endLine,
			severity: finding.severity,
			title: finding.title,
			message: finding.message,
			agents: finding.agents,
			of,
			label,
			single,
			thread,
		};
		this._threads.set(thread, shown);
		this._updateContext();
		return shown;
	}

	/** `thread` is still shown (not dismissed or cleared). */
	isShown(thread: FindingThread): boolean {
		return this._threads.get(thread.thread) === thread;
	}

	dismiss(thread: unknown): void {
		const known = [...this._threads.keys()].find((candidate) => candidate === thread);
		if (!known) return;
		this._threads.delete(known);
		known.dispose();
		this._updateContext();
	}

	/** Removes the threads on `uri`, or every thread. */
	clear(uri?: vscode.Uri): void {
		for (const [thread, finding] of this._threads) {
			if (uri && finding.uri.toString() !== uri.toString()) continue;
			this._threads.delete(thread);
			thread.dispose();
		}
		this._updateContext();
	}

	private _updateContext(): void {
		void vscode.commands.executeCommand('setContext', contextKeys.hasReviewComments, this._threads.size > 0);
	}
}
