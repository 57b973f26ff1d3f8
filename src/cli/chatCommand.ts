/**
 * `massgen chat` (docs/sessions.md): the live table for each question, then a prompt for the next one;
 * every question follows up on the previous turn (history from the run directories), and the
 * last run's changes can be seen, written or dropped: `/diff`, `/accept`, `/reject`, `/quit`.
 */
import { resolve } from 'node:path';
import { appendChangeLog } from '../core/runStore/changeLog.js';
import type { RunSessionOutcome } from '../core/run/runSession.js';
import { readRunPatch } from '../core/runStore/readPatch.js';
import { seedRedactor } from '../core/secrets/seedRedactor.js';
import { errorMessage } from '../core/util/errorMessage.js';
import { applyWinner } from './applyWinner.js';
import type { ChatArgs, RunArgs } from './args.js';
import { ChatInput } from './chatInput.js';
import type { CliIo } from './cliIo.js';
import { rawTerminal } from './display/terminalStream.js';
import { redactedIo } from './redactedIo.js';
import { runCommand } from './runCommand.js';

export type ChatIo = Omit<CliIo, 'signal' | 'stdin'> & { readonly stdin: NodeJS.ReadStream };

const help = 'Ask a question, or /diff (the last changes), /accept (write them), /reject, /quit.';

/** Runs until /quit, the end of input, or Ctrl-C at the prompt; exit 0. */
export async function chatCommand(command: ChatArgs, callerIo: ChatIo): Promise<number> {
	const redactor = seedRedactor({ env: callerIo.env });
	const io = redactedIo({ ...callerIo, signal: new AbortController().signal }, () => redactor);
	const root = resolve(command.workspace);
	// Readline edits the prompt line with escape sequences: it gets the terminal itself.
	const input = new ChatInput(callerIo.stdin, rawTerminal(callerIo.stderr));
	let running: AbortController | null = null;
	let quitting = false;
	// Ctrl-C at the prompt is readline's (terminal) or this handler's (piped input): it quits.
	const onSignal = (signal: NodeJS.Signals) => {
		if (signal === 'SIGTERM') quitting = true;
		if (!running) return input.interrupt();
		if (running.signal.aborted) process.exit(4);
		io.stderr.write('\nmassgen: stopping the run (press Ctrl-C again to quit at once)\n');
		running.abort();
	};
	process.on('SIGINT', onSignal);
	process.on('SIGTERM', onSignal);
	const chat = new ChatState(root, io);
	let follow = command.continue;
	io.stderr.write(`massgen chat: ${help}\n`);
	try {
		for (;;) {
			const line = await input.ask('massgen> ');
			if (line === null || quitting) break;
			const text = line.trim();
			if (text === '') continue;
			if (text.startsWith('/')) {
				if (text === '/quit' || text === '/exit') break;
				await chat.slash(text);
				continue;
			}
			running = new AbortController();
			const run: RunArgs = {
				kind: 'run',
				question: text,
				config: command.config,
				workspace: command.workspace,
				json: false,
				timeoutSeconds: command.timeoutSeconds,
				apply: false,
				approvals: command.approvals,
				...(command.unsandboxedCommands ? { unsandboxedCommands: true } : {}),
				...(command.trustWorkspace ? { trustWorkspace: true } : {}),
				...(command.noInstructions ? { noInstructions: true } : {}),
				...(command.providerTools ? { providerTools: command.providerTools } : {}),
				attach: [],
				attachDiff: [],
				...(follow ? { continue: follow } : {}),
			};
			let recorded: Promise<void> | undefined;
			// A turn is a `massgen run` that follows the last one: the same host, prepareRun and startRun.
			await runCommand(
				run,
				{ ...callerIo, signal: running.signal },
				{
					afterRun: (outcome) => {
						recorded = chat.finished(outcome);
						// The next question follows this turn (a fork if someone else followed it meanwhile).
						follow = { id: outcome.result.runId };
					},
					// On a terminal, what is typed while the team works steers it (piped lines stay questions).
					...(callerIo.stdin.isTTY ? { typed: input.whileRunning() } : {}),
				},
			);
			await recorded;
			running = null;
			if (quitting) break;
		}
	} finally {
		process.off('SIGINT', onSignal);
		process.off('SIGTERM', onSignal);
		input.close();
	}
	return 0;
}

/** The last run and what the user decided about its changes. */
class ChatState {
	private last: RunSessionOutcome | undefined;
	private decided: 'accepted' | 'rejected' | undefined;
	private secretWarned: RunSessionOutcome | undefined;

	constructor(
		private readonly root: string,
		private readonly io: CliIo,
	) {}

	async finished(outcome: RunSessionOutcome): Promise<void> {
		const previous = this.last;
		if (previous && !this.decided && proposes(previous)) {
			// Its changes can no longer be accepted here: the record says so, instead of "pending" forever.
			await appendChangeLog(previous.runDir, {
				kind: 'supersede',
				by: 'cli',
				byRun: outcome.result.runId,
			}).catch((error: unknown) =>
				this.io.stderr.write(
					`massgen: cannot record run ${previous.result.runId}'s changes as replaced: ${errorMessage(error)}\n`,
				),
			);
		}
		this.last = outcome;
		this.decided = undefined;
		const count = outcome.result.changes.length;
		if (count > 0 && outcome.result.status !== 'cancelled') {
			this.io.stderr.write(
				`${count} proposed change(s): /diff to see them, /accept to write them, /reject\n`,
			);
		}
	}

	async slash(text: string): Promise<void> {
		const { stderr, stdout } = this.io;
		if (text === '/help') return void stderr.write(`${help}\n`);
		if (!['/diff', '/accept', '/reject'].includes(text)) {
			return void stderr.write(`massgen: unknown command ${text}. ${help}\n`);
		}
		const last = this.last;
		if (!last || !proposes(last)) {
			return void stderr.write('massgen: the last run proposed no changes\n');
		}
		if (text === '/diff') {
			const patch = await readRunPatch(last.runDir);
			return void stdout.write(patch.endsWith('\n') ? patch : `${patch}\n`);
		}
		if (this.decided) return void stderr.write(`massgen: these changes were ${this.decided} already\n`);
		if (text === '/accept') {
			// A change set that would write a secret value: the first /accept says so, a second one writes.
			const warned = this.secretWarned === last;
			this.secretWarned = last;
			const consent = async () => {
				if (!warned) stderr.write('massgen: /accept again to write them anyway\n');
				return warned;
			};
			if (await applyWinner(this.root, last, stderr, consent)) this.decided = 'accepted';
			return;
		}
		const paths = last.result.changes.map((change) => change.path);
		await appendChangeLog(last.runDir, { kind: 'reject', by: 'cli', paths });
		this.decided = 'rejected';
		stderr.write(`rejected ${paths.length} change(s); nothing was written\n`);
	}
}

/** Whether the run left changes to accept or reject. */
function proposes(run: RunSessionOutcome): boolean {
	return run.result.changes.length > 0 && run.result.status !== 'cancelled';
}
