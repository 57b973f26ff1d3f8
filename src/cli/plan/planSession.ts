/**
 * What every run of one `massgen plan` command shares: the redacted streams (their redactor learns
 * each run's secrets), the terminal, the flags every run takes (budget and timeout per run), and
 * the exit codes (docs/cli.md#massgen-plan).
 */
import type { RunStatus } from '../../contract/runEvents.js';
import type { RunRequest } from '../../core/run/runHost.js';
import type { Redactor } from '../../core/secrets/redactor.js';
import { seedRedactor } from '../../core/secrets/seedRedactor.js';
import type { CliIo } from '../cliIo.js';
import { redactedIo } from '../redactedIo.js';
import { terminalRun, type TerminalRunOutcome } from '../terminalRun.js';
import type { PlanArgs } from './planArgs.js';

export const planExit = { done: 0, usageOrPlan: 1, failed: 2, timedOut: 3, cancelled: 4 } as const;

export const statusExit: Record<RunStatus, number> = {
	completed: planExit.done,
	failed: planExit.failed,
	timeout: planExit.timedOut,
	cancelled: planExit.cancelled,
};

/** A run's own part of the request; the session adds the workspace, the caps and the signal. */
export type PlanRunPart = Pick<RunRequest, 'question' | 'readOnly' | 'plan' | 'followUp' | 'startFrom'> & {
	readonly attachments?: RunRequest['attachments'];
};

export interface PlanSession {
	readonly command: PlanArgs;
	readonly io: CliIo;
	readonly root: string;
	readonly interactive: boolean;
	/** One line on stderr, `massgen: ` first. */
	say(line: string): void;
	/** What the runs so far know to be secret, masked (for what goes into the plan file). */
	redact(text: string): string;
	run(part: PlanRunPart): Promise<TerminalRunOutcome>;
}

export function planSession(command: PlanArgs, callerIo: CliIo): PlanSession {
	// Every byte on stdout and stderr passes the redactor; it learns each run's secrets.
	let redactor: Redactor = seedRedactor({ env: callerIo.env });
	const io = redactedIo(callerIo, () => redactor);
	const interactive = io.stdin?.isTTY === true && io.stderr.isTTY === true;
	const root = command.workspace;
	return {
		command,
		io,
		root,
		interactive,
		say: (line) => void io.stderr.write(`massgen: ${line}\n`),
		redact: (text) => redactor.text(text),
		run: (part) =>
			terminalRun({
				options: command,
				request: {
					...part,
					workspaceRoot: root,
					...(command.noInstructions ? { instructions: false } : {}),
					signal: io.signal,
					...(command.timeoutSeconds ? { coordinationTimeoutMs: command.timeoutSeconds * 1000 } : {}),
					budget: {
						...(command.maxCostUsd
							? { maxCostUsd: { limit: command.maxCostUsd, source: '--max-cost' } }
							: {}),
						...(command.maxTokens ? { maxTokens: { limit: command.maxTokens, source: '--max-tokens' } } : {}),
					},
				},
				io,
				interactive,
				learnSecrets: (learned) => (redactor = learned),
				// --json is the plan's one object on stdout; the runs' progress stays on stderr.
				jsonEvents: false,
			}),
	};
}
