/**
 * Everything that steers one `massgen run` while it goes (docs/cli.md#steering-a-run): the inbox
 * (`--inbox DIR`, read from the first round on, so files put there before the run are delivered
 * once it coordinates), SIGUSR1 (finish now) and, in `massgen chat`, the lines typed meanwhile.
 * Each says what became of it on stderr.
 */
import type { RunEvent } from '../../contract/runEvents.js';
import type { RunControl } from '../../core/run/runControl.js';
import { Inbox, type InboxGuard } from './inbox.js';
import { sendSteer } from './sendSteer.js';
import { parseSteerText } from './steerText.js';

/** Lines the user types while the run goes (chat's input); paused while a prompt asks. */
export interface TypedLines {
	listen(onLine: (line: string) => void): void;
	pause(): void;
	resume(): void;
	stop(): void;
}

export interface RunSteeringOptions {
	readonly control: Pick<RunControl, 'steer' | 'finishNow'>;
	/** From `prepareInbox`. */
	readonly inbox?: { readonly dir: string; readonly guard: InboxGuard };
	readonly typed?: TypedLines;
	/** One line for the user (stderr). */
	readonly say: (line: string) => void;
}

export class RunSteering {
	private inbox: Inbox | undefined;
	private readonly onUsr1 = () => {
		const report = sendSteer(this.options.control, { kind: 'finish' });
		this.options.say(`SIGUSR1: ${report.text}`);
	};

	constructor(private readonly options: RunSteeringOptions) {
		process.on('SIGUSR1', this.onUsr1);
		options.typed?.listen((line) => this.typed(line));
	}

	onEvent(event: RunEvent): void {
		if (event.type !== 'round-start' || this.inbox || !this.options.inbox) return;
		this.inbox = new Inbox(this.options.inbox.dir, {
			guard: this.options.inbox.guard,
			deliver: (text) => sendSteer(this.options.control, parseSteerText(text)),
			report: this.options.say,
		});
		this.inbox.start();
	}

	/** A prompt (an approval) takes the terminal: typed lines are its, not steering. */
	pause(): void {
		this.options.typed?.pause();
	}

	resume(): void {
		this.options.typed?.resume();
	}

	/** The run ended: nothing steers it any more (an inbox scan in progress finishes its file). */
	async stop(): Promise<void> {
		process.off('SIGUSR1', this.onUsr1);
		this.options.typed?.stop();
		await this.inbox?.stop();
	}

	private typed(raw: string): void {
		const line = raw.trim();
		if (line === '') return;
		const word = line.split(/\s/, 1)[0]!;
		if (word.startsWith('/') && word !== '/finish' && word !== '/note') {
			this.options.say(
				`${word} waits for the prompt; while the team works: text, @ID text, /note text, /finish`,
			);
			return;
		}
		this.options.say(sendSteer(this.options.control, parseSteerText(line)).text);
	}
}
