/**
 * Approvals in the editor (docs/tools-and-sandbox.md): the panel's cards answer through
 * `answer` (validated by the panel host first; stale ids are ignored), a request that arrives
 * while the panel is hidden, not focused or showing another run also raises a notification that
 * names the run (Allow once / Deny / Show, which opens that run in the panel), and the waiting
 * count drives the badge (status bar text and panel title). The broker
 * dedupes identical requests of a run, so each request is one card and at most one notification.
 * The surface is injected (unit-tested with the real broker); only `vscode.l10n` is used here.
 */
import * as vscode from 'vscode';
import type {
	ApprovalChoice,
	ApprovalOutcome,
	PendingApproval,
} from '../../core/permissions/approvalBroker.js';
import type { IDisposable } from '../common/lifecycle.js';
import { visibleCommand } from '../../protocol/visibleText.js';

/** The part of `ApprovalBroker` this needs. */
export interface ApprovalSource {
	onDidRequest(listener: (request: PendingApproval) => void): () => void;
	onDidSettle(listener: (request: PendingApproval, outcome: ApprovalOutcome) => void): () => void;
	resolve(requestId: string, choice: ApprovalChoice, note?: string): boolean;
	pending(runId?: string): PendingApproval[];
}

export interface ApprovalSurface {
	/** The panel is on screen, has the keyboard focus and shows this run: its card is enough. */
	panelFocusedOn(runId: string): boolean;
	/** Shows the run in the panel (the notification's Show). */
	showRun(runId: string): void;
	/** The run as the user knows it (`runLabel`: its question, and its folder in a multi-root workspace); undefined when unknown. */
	runLabel(runId: string): string | undefined;
	/** The number of requests waiting changed (badge). */
	onCount(count: number): void;
	/** A non-modal notification; resolves with the clicked button (undefined when dismissed). */
	notify(message: string, ...buttons: string[]): Thenable<string | undefined>;
	readonly log: { info(message: string): void; warn(message: string): void };
}

/** Getters: each text is looked up in the display language when a notification is raised. */
export const notificationButtons = {
	get allowOnce(): string {
		return vscode.l10n.t('Allow once');
	},
	get deny(): string {
		return vscode.l10n.t('Deny');
	},
	get show(): string {
		return vscode.l10n.t('Show');
	},
};

/** Shown in a notification or a status text; long targets are cut. */
const maxTarget = 120;

export class ApprovalPrompts implements IDisposable {
	private readonly _unsubscribe: (() => void)[] = [];
	private _count = 0;
	/** How recent requests ended, for a click on a notification that outlived its request (VS Code cannot close one). */
	private readonly _settled = new Map<string, ApprovalOutcome>();
	/** Notifications shown (newest last, at most 20): in-host tests read it. */
	readonly notifications: string[] = [];

	constructor(
		private readonly _source: ApprovalSource,
		private readonly _surface: ApprovalSurface,
	) {
		this._unsubscribe.push(
			_source.onDidRequest((request) => this._onRequest(request)),
			_source.onDidSettle((request, outcome) => this._onSettle(request, outcome)),
		);
	}

	/** Requests waiting for a decision. */
	get waiting(): number {
		return this._count;
	}

	/**
	 * A decision from the panel's card. False when the request is no longer pending (decided
	 * meanwhile from the notification, timed out, or its run ended): nothing happens then.
	 */
	answer(requestId: string, choice: ApprovalChoice, note?: string): boolean {
		const pending = this._source.pending().find((request) => request.requestId === requestId);
		if (!pending || !this._source.resolve(requestId, choice, note)) {
			this._surface.log.info(`approval ${requestId}: ${choice} ignored (no longer waiting)`);
			return false;
		}
		this._surface.log.info(
			`approval ${requestId} (${describeTarget(pending)}): ${choice} from the panel${note?.trim() ? ' with a note' : ''}`,
		);
		return true;
	}

	dispose(): void {
		for (const unsubscribe of this._unsubscribe.splice(0)) unsubscribe();
	}

	private _onRequest(request: PendingApproval): void {
		this._setCount();
		this._surface.log.info(
			`approval ${request.requestId}: ${request.agentIds.join(', ')} asks to ${request.action} ${request.target} (${request.reason})`,
		);
		if (this._surface.panelFocusedOn(request.runId)) return;
		const message = approvalMessage(request, this._surface.runLabel(request.runId));
		this.notifications.push(message);
		if (this.notifications.length > 20) this.notifications.shift();
		const { allowOnce, deny, show } = notificationButtons;
		// A cut target could hide its tail: then it is allowed only from the panel, which shows it whole.
		const buttons = oneLine(request.target).length > maxTarget ? [deny, show] : [allowOnce, deny, show];
		void Promise.resolve(this._surface.notify(message, ...buttons)).then(
			(choice) => {
				if (choice === show) this._surface.showRun(request.runId);
				else if (choice === allowOnce || choice === deny) {
					const decision: ApprovalChoice = choice === deny ? 'deny' : 'allow-once';
					if (this._source.resolve(request.requestId, decision)) {
						this._surface.log.info(`approval ${request.requestId}: ${decision} from the notification`);
						return;
					}
					this._surface.log.info(
						`approval ${request.requestId}: ${decision} from the notification ignored (no longer waiting)`,
					);
					const outcome = this._settled.get(request.requestId);
					void this._surface.notify(
						vscode.l10n.t(
							'MassGen: nothing changed: the request {0} was already {1}.',
							describeTarget(request),
							settledText(outcome),
						),
					);
				}
			},
			(error: unknown) => this._surface.log.warn(`approval notification: ${String(error)}`),
		);
	}

	private _onSettle(request: PendingApproval, outcome: ApprovalOutcome): void {
		this._settled.set(request.requestId, outcome);
		if (this._settled.size > 50) this._settled.delete(this._settled.keys().next().value!);
		this._setCount();
		this._surface.log.info(
			`approval ${request.requestId}: ${outcome.decision} by ${outcome.by}${outcome.note ? ` (${outcome.note})` : ''}`,
		);
	}

	private _setCount(): void {
		const count = this._source.pending().length;
		if (count === this._count) return;
		this._count = count;
		this._surface.onCount(count);
	}
}

/** "MassGen “Fix the build”: alpha wants to run `npm publish`" (without `run`: "MassGen: alpha wants …"). */
export function approvalMessage(
	request: Pick<PendingApproval, 'agentIds' | 'action' | 'target'>,
	run?: string,
): string {
	const who = joinNames(request.agentIds.length ? request.agentIds : [vscode.l10n.t('an agent')]);
	const what = describeTarget(request);
	const many = request.agentIds.length > 1;
	if (run === undefined) {
		return many
			? vscode.l10n.t('MassGen: {0} want {1}', who, what)
			: vscode.l10n.t('MassGen: {0} wants {1}', who, what);
	}
	return many
		? vscode.l10n.t('MassGen {0}: {1} want {2}', run, who, what)
		: vscode.l10n.t('MassGen {0}: {1} wants {2}', run, who, what);
}

function describeTarget(request: Pick<PendingApproval, 'action' | 'target'>): string {
	const target = `\`${cut(request.target)}\``;
	if (request.action === 'command') return vscode.l10n.t('to run {0}', target);
	if (request.action === 'mcp') return vscode.l10n.t('to call {0}', target);
	return vscode.l10n.t('to {0} {1}', request.action, target);
}

function settledText(outcome: ApprovalOutcome | undefined): string {
	if (!outcome) return vscode.l10n.t('decided');
	const allowed = outcome.decision === 'allow';
	switch (outcome.by) {
		case 'user':
			return allowed ? vscode.l10n.t('allowed in the panel') : vscode.l10n.t('denied in the panel');
		case 'timeout':
			return allowed
				? vscode.l10n.t('allowed: nobody answered in time')
				: vscode.l10n.t('denied: nobody answered in time');
		case 'cancelled':
			return allowed ? vscode.l10n.t('allowed: the run ended') : vscode.l10n.t('denied: the run ended');
		case 'rule':
			return allowed ? vscode.l10n.t('allowed by a rule') : vscode.l10n.t('denied by a rule');
	}
}

function cut(text: string): string {
	const line = oneLine(text);
	return line.length > maxTarget ? `${line.slice(0, maxTarget - 1)}…` : line;
}

/** Controls and bidi or invisible characters shown visibly (they could make it read as another command). */
function oneLine(text: string): string {
	return visibleCommand(text).replace(/\s+/g, ' ').trim();
}

function joinNames(names: readonly string[]): string {
	if (names.length <= 1) return names[0] ?? '';
	return vscode.l10n.t('{0} and {1}', names.slice(0, -1).join(', '), names.at(-1) ?? '');
}

/** Status bar text while requests wait: `$(shield) 1 approval`. */
export function badgeText(count: number): string {
	return count === 1
		? vscode.l10n.t('$(shield) 1 approval')
		: vscode.l10n.t('$(shield) {0} approvals', count);
}

/** The panel's title: `MassGen (1 waiting)` while requests wait. */
export function panelTitle(count: number): string {
	return count > 0 ? vscode.l10n.t('MassGen ({0} waiting)', count) : 'MassGen';
}
