/**
 * One team run on the terminal, as `massgen run` makes it and `massgen plan` makes each of its runs:
 * the CLI's run host, `prepareRun` and `startRun`, the live display (or `--json` events on stdout),
 * approvals asked on the terminal, steering, then `run log:` and the run's summary on stderr.
 * What happens to the result (printing the answer, `--apply`) is the caller's.
 */
import { runFileNames } from '../contract/runLayout.js';
import { AttachmentError } from '../core/context/attachment.js';
import { EstimateDeclinedError } from '../core/run/estimateDeclinedError.js';
import { prepareRun } from '../core/run/prepareRun.js';
import type { RunRequest } from '../core/run/runHost.js';
import type { RunSessionOutcome } from '../core/run/runSession.js';
import { startRun } from '../core/run/startRun.js';
import type { Redactor } from '../core/secrets/redactor.js';
import { TerminalApprover } from './approvalPrompt.js';
import type { CliIo } from './cliIo.js';
import { missingConfig } from './cliHost.js';
import { cliRunHost, type CliRunOptions } from './cliRunHost.js';
import { createDisplay } from './display/createDisplay.js';
import { runSummaryLines } from './display/runSummary.js';
import { RunSteering, type RunSteeringOptions, type TypedLines } from './steer/runSteering.js';

/** The exit code of a run that did not start (or was stopped before it did). */
export const notStarted = { usageOrConfig: 1, failed: 2, cancelled: 4 } as const;

export interface TerminalRunInput {
	/** What the run host takes from the command line (approvals, config, trust, provider tools). */
	readonly options: CliRunOptions;
	readonly request: RunRequest;
	/** Already passing the redactor `learnSecrets` keeps current. */
	readonly io: CliIo;
	readonly interactive: boolean;
	readonly learnSecrets: (redactor: Redactor) => void;
	/** `--json`: the events as NDJSON on stdout, and no live display. */
	readonly jsonEvents: boolean;
	readonly inbox?: RunSteeringOptions['inbox'];
	/** Lines typed while the run goes (chat): they steer it. */
	readonly typed?: TypedLines;
}

export type TerminalRunOutcome =
	| { readonly ok: true; readonly outcome: RunSessionOutcome }
	/** No run (the reason is said on stderr): the exit code. */
	| { readonly ok: false; readonly code: number };

export async function terminalRun(input: TerminalRunInput): Promise<TerminalRunOutcome> {
	const { io, interactive } = input;
	const host = cliRunHost(input.options, io, input.request.workspaceRoot, {
		interactive,
		learnSecrets: input.learnSecrets,
	});
	const prepared = await prepareRun(input.request, host);
	if (!prepared.ok) {
		if (prepared.refused === 'follow-up') return said(io, prepared.message, notStarted.usageOrConfig);
		if (prepared.refused === 'config') {
			return said(io, missingConfig(prepared.file), notStarted.usageOrConfig);
		}
		return { ok: false, code: notStarted.usageOrConfig };
	}
	const display = input.jsonEvents ? undefined : createDisplay(io.stderr);
	let steering: RunSteering | undefined;
	const approver =
		interactive && io.stdin
			? new TerminalApprover(host.broker, {
					input: io.stdin,
					output: io.stderr,
					pause: () => {
						steering?.pause();
						display?.pause?.();
					},
					resume: () => {
						display?.resume?.();
						steering?.resume();
					},
				})
			: undefined;
	// Said above the live table (which steps aside for the line).
	const say = (line: string) => {
		display?.pause?.();
		io.stderr.write(`massgen: ${line}\n`);
		display?.resume?.();
	};
	let outcome: RunSessionOutcome;
	try {
		const run = startRun(prepared.run, host);
		steering = new RunSteering({
			control: run,
			...(input.inbox ? { inbox: input.inbox } : {}),
			...(input.typed ? { typed: input.typed } : {}),
			say,
		});
		for await (const event of run.events) {
			steering.onEvent(event);
			// The tools' warnings (a server that did not start) are said in every mode, as they happen.
			if (event.type === 'notice' && event.source === 'tools') {
				io.stderr.write(`massgen: ${event.message}\n`);
			}
			display?.onEvent(event);
			if (input.jsonEvents) io.stdout.write(`${JSON.stringify(event)}\n`);
		}
		outcome = await run.result;
	} catch (error) {
		// Ctrl-C while attachments were read: no run started, and none is reported.
		if (io.signal.aborted) return said(io, 'cancelled', notStarted.cancelled);
		if (AttachmentError.is(error)) return said(io, error.message, notStarted.failed);
		if (EstimateDeclinedError.is(error)) return { ok: false, code: notStarted.usageOrConfig };
		throw error;
	} finally {
		await steering?.stop();
		approver?.dispose();
	}
	display?.close();
	const { result, runDir } = outcome;
	io.stderr.write(`run log: ${runDir}\n`);
	for (const line of runSummaryLines(result)) io.stderr.write(`${line}\n`);
	const decisions = outcome.ledger?.entries ?? [];
	if (decisions.length > 0) {
		const denied = decisions.filter((entry) => entry.decision === 'deny').length;
		io.stderr.write(
			`tool permissions: ${decisions.length} decision(s), ${denied} denied (${outcome.ledger?.path ?? runFileNames.permissions})\n`,
		);
	}
	if (result.error) io.stderr.write(`error: ${result.error}\n`);
	// A failed run already said why (its error is the reason).
	if (result.budget?.reason && result.status !== 'failed') {
		io.stderr.write(`budget: ${result.budget.reason}\n`);
	}
	return { ok: true, outcome };
}

function said(io: CliIo, message: string, code: number): TerminalRunOutcome {
	io.stderr.write(`massgen: ${message}\n`);
	return { ok: false, code };
}
