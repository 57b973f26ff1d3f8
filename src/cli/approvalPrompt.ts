/**
 * Approvals on the command line: a prompt on the terminal (stderr, answered on stdin), one
 * request at a time, or a policy for automation: `--yes` allows, `--deny-all` denies, and with
 * no terminal and no flag every request is denied with a message saying how to choose.
 */
import { createInterface, type Interface } from 'node:readline';
import type {
	ApprovalBroker,
	ApprovalChoice,
	ApprovalPolicy,
	PendingApproval,
} from '../core/permissions/approvalBroker.js';
import { rawTerminal } from './display/terminalStream.js';
import { visibleCommand } from '../protocol/visibleText.js';

export type ApprovalMode = 'ask' | 'yes' | 'deny-all';

/** The automatic answer for a mode, or undefined when the user is asked on the terminal. */
export function cliApprovalPolicy(mode: ApprovalMode, interactive: boolean): ApprovalPolicy | undefined {
	if (mode === 'yes') return () => ({ decision: 'allow', note: 'allowed by --yes' });
	if (mode === 'deny-all') return () => ({ decision: 'deny', note: 'denied by --deny-all' });
	if (interactive) return undefined;
	return () => ({
		decision: 'deny',
		note: 'approval needed, but there is no terminal to ask on; run with --yes to allow or --deny-all to deny without asking',
	});
}

export interface PromptStreams {
	readonly input: NodeJS.ReadableStream;
	readonly output: NodeJS.WritableStream & { readonly isTTY?: boolean };
	/** Called around a prompt so a live display can step aside. */
	readonly pause?: () => void;
	readonly resume?: () => void;
}

/** Parses an answer: y / r / a / n [note]; undefined when it is none of these. */
export function parseAnswer(text: string): { choice: ApprovalChoice; note?: string } | undefined {
	const trimmed = text.trim();
	const match = /^(\S+)\s*(.*)$/s.exec(trimmed);
	if (!match) return undefined;
	const word = match[1]!.toLowerCase();
	const note = match[2]!.trim();
	if (word === 'y' || word === 'yes' || word === 'o' || word === 'once') return { choice: 'allow-once' };
	if (word === 'r' || word === 'run') return { choice: 'allow-run' };
	if (word === 'a' || word === 'always') return { choice: 'always' };
	if (word === 'n' || word === 'no' || word === 'd' || word === 'deny') {
		return note ? { choice: 'deny', note } : { choice: 'deny' };
	}
	return undefined;
}

/** Asks on the terminal for each request the broker announces, one at a time. */
export class TerminalApprover {
	private readonly queue: PendingApproval[] = [];
	private current: { request: PendingApproval; rl: Interface } | undefined;
	private readonly unsubscribe: (() => void)[];
	private disposed = false;

	constructor(
		private readonly broker: ApprovalBroker,
		private readonly streams: PromptStreams,
	) {
		this.unsubscribe = [
			broker.onDidRequest((request) => {
				this.queue.push(request);
				this.next();
			}),
			broker.onDidSettle((request, outcome) => {
				const index = this.queue.findIndex((queued) => queued.requestId === request.requestId);
				if (index >= 0) this.queue.splice(index, 1);
				if (this.current?.request.requestId === request.requestId && outcome.by !== 'user') {
					this.streams.output.write(
						`\n(${outcome.by === 'timeout' ? 'no decision in time: denied' : 'no longer needed'})\n`,
					);
					this.finish();
				}
			}),
		];
	}

	dispose(): void {
		this.disposed = true;
		for (const stop of this.unsubscribe) stop();
		this.queue.length = 0;
		this.finish();
	}

	private next(): void {
		if (this.current !== undefined || this.disposed) return;
		const request = this.queue.shift();
		if (request === undefined) return;
		this.streams.pause?.();
		// Readline edits the answer line with escape sequences: it writes to the terminal itself.
		const rl = createInterface({
			input: this.streams.input,
			output: rawTerminal(this.streams.output),
			terminal: this.streams.output.isTTY === true,
		});
		// In raw mode Ctrl-C reaches readline, not the process: pass it on (the CLI cancels the run).
		rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
		this.current = { request, rl };
		this.streams.output.write(describeApproval(request));
		this.ask(rl, request);
	}

	private ask(rl: Interface, request: PendingApproval): void {
		rl.question(
			'  [y] allow once  [r] allow for this run  [a] always allow  [n] deny (n <note> tells the agent why) > ',
			(text) => {
				if (this.current?.rl !== rl) return;
				const answer = parseAnswer(text);
				if (answer === undefined) {
					this.ask(rl, request);
					return;
				}
				this.finish();
				this.broker.resolve(request.requestId, answer.choice, answer.note);
			},
		);
	}

	private finish(): void {
		const current = this.current;
		if (current === undefined) return;
		this.current = undefined;
		current.rl.close();
		this.streams.resume?.();
		queueMicrotask(() => this.next());
	}
}

/**
 * What is asked, all of it: the agents, the command or tool call in full (a tail cut off could hide
 * what runs) and every control or invisible character in it shown visibly, always, so a `\r`,
 * `ESC[2K` or cursor-up cannot draw a harmless command over the real one. Agent ids, tool names and
 * the reason come from configs and servers, and get the same treatment.
 */
export function describeApproval(request: PendingApproval): string {
	const who = request.agentIds.join(', ');
	const cwd = request.args['cwd'];
	const what =
		request.action === 'command'
			? `run a command${cwd && cwd !== '.' ? ` in ${String(cwd)}` : ''}`
			: `call ${request.tool}`;
	const detail =
		request.action === 'command' ? request.target : `${request.target} ${JSON.stringify(request.args)}`;
	const lines = visibleCommand(detail).split('\n');
	// Many lines push the first ones off the screen: say how many there are, right above the question.
	const count =
		lines.length > 1
			? `  (the ${request.action === 'command' ? 'command' : 'call'} above is ${lines.length} lines)\n`
			: '';
	return visibleCommand(
		`\n${who} asks to ${what}:\n${lines.map((line) => `    ${line}`).join('\n')}\n${count}  why: ${request.reason}\n`,
	);
}
