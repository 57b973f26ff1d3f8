import type * as vscode from 'vscode';
import type { RunEvent } from '../../contract/runEvents.js';
import { reportToolNotices } from './runMessages.js';

/**
 * The run's tool notices (`notice` events from the tools: a server that did not start, a rule that
 * did not parse, a trust refusal): each to the log, and the first ones of a run (servers start in
 * parallel) to one notification. A cancelled run's go to the log only.
 */
export class ToolNotices {
	private readonly notices: string[] = [];
	private timer: NodeJS.Timeout | undefined;
	private reported = false;

	constructor(
		private readonly log: vscode.LogOutputChannel,
		private readonly token: vscode.CancellationToken,
	) {}

	onEvent(event: RunEvent): void {
		if (event.type !== 'notice' || event.source !== 'tools') return;
		this.log.warn(`tools: ${event.message}`);
		if (this.token.isCancellationRequested || this.reported) return;
		this.notices.push(event.message);
		this.timer ??= setTimeout(() => {
			this.reported = true;
			reportToolNotices(this.log, this.notices);
		}, 400);
	}
}
