import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RunStatus } from '../contract/runEvents.js';
import { runFile } from '../contract/runLayout.js';
import type { AttachmentRequest } from '../core/context/attachment.js';
import type { RunRequest } from '../core/run/runHost.js';
import type { RunSessionOutcome } from '../core/run/runSession.js';
import { seedRedactor } from '../core/secrets/seedRedactor.js';
import { applyWinner } from './applyWinner.js';
import type { CliCommand } from './args.js';
import type { CliIo } from './cliIo.js';
import { redactedIo } from './redactedIo.js';
import { cliRevision, recordRevised } from './revisionRequest.js';
import { secretWriteConsent } from './secretWritePrompt.js';
import { prepareInbox } from './steer/inbox.js';
import type { TypedLines } from './steer/runSteering.js';
import { terminalRun } from './terminalRun.js';

const exitCodes: Record<RunStatus, number> = { completed: 0, failed: 2, timeout: 3, cancelled: 4 };

/** `massgen run` (docs/cli.md). Returns the exit code. */
export async function runCommand(
	command: Extract<CliCommand, { kind: 'run' }>,
	callerIo: CliIo,
	chat: {
		/** Given the finished run (chat's `/accept`, `/diff`); it then tells the user about proposed changes. */
		readonly afterRun?: (outcome: RunSessionOutcome) => void;
		/** Lines typed while the run goes: they steer it. */
		readonly typed?: TypedLines;
	} = {},
): Promise<number> {
	const { afterRun } = chat;
	// Every byte on stdout and stderr passes the run's redactor; it learns the team's secrets below.
	let redactor = seedRedactor({ env: callerIo.env });
	const io = redactedIo(callerIo, () => redactor);
	const root = resolve(command.workspace);
	if (!(await isDirectory(root))) return fail(io, `workspace '${command.workspace}' is not a folder`);
	const inbox = command.inbox === undefined ? undefined : await prepareInbox(command.inbox, root);
	if (inbox && !inbox.ok) return fail(io, inbox.reason);
	const piped = command.stdin && (await readStdin(io));
	if (piped !== undefined && piped.trim() === '') return fail(io, 'stdin (-) was empty', 2);
	const revised = command.comments && (await cliRevision(root, command.continue!.id!, command.comments));
	if (revised && !revised.ok) return fail(io, revised.reason);
	for (const note of revised ? revised.notes : []) io.stderr.write(`massgen: ${note}\n`);
	const asked = command.stdin === 'question' ? piped!.trim() : command.question;
	const question = asked || (revised ? 'Revise the proposal: address the review comments.' : asked);
	const attachments: AttachmentRequest[] = [
		...command.attach.map((path) => ({ kind: 'path' as const, path })),
		...command.attachDiff.map((source) => ({ kind: 'diff' as const, source })),
		...(command.stdin === 'attachment' ? [{ kind: 'text' as const, source: 'stdin', text: piped! }] : []),
	];
	const interactive = io.stdin?.isTTY === true && io.stderr.isTTY === true;
	const request: RunRequest = {
		question,
		workspaceRoot: root,
		...(command.continue
			? { followUp: { ...(command.continue.id ? { from: command.continue.id } : {}) } }
			: {}),
		attachments,
		...(revised ? { revision: revised.revision } : {}),
		...(command.noInstructions ? { instructions: false } : {}),
		signal: io.signal,
		...(command.timeoutSeconds ? { coordinationTimeoutMs: command.timeoutSeconds * 1000 } : {}),
		budget: {
			...(command.maxCostUsd ? { maxCostUsd: { limit: command.maxCostUsd, source: '--max-cost' } } : {}),
			...(command.maxTokens ? { maxTokens: { limit: command.maxTokens, source: '--max-tokens' } } : {}),
		},
	};
	const ran = await terminalRun({
		options: command,
		request,
		io,
		interactive,
		learnSecrets: (learned) => (redactor = learned),
		jsonEvents: command.json,
		...(inbox?.ok ? { inbox } : {}),
		...(chat.typed ? { typed: chat.typed } : {}),
	});
	if (!ran.ok) return ran.code;
	const { outcome } = ran;
	const { result, runDir } = outcome;
	const unrecorded = revised && (await recordRevised(root, revised.revision.fromRunId, outcome));
	if (unrecorded) io.stderr.write(`massgen: ${unrecorded}\n`);
	if (!command.json && result.finalAnswer !== null) io.stdout.write(`${result.finalAnswer.trimEnd()}\n`);
	if (command.apply && result.changes.length > 0 && result.status !== 'cancelled') {
		const consent = secretWriteConsent({
			output: io.stderr,
			input: interactive ? io.stdin : undefined,
			yes: command.approvals === 'yes',
		});
		if (!(await applyWinner(root, outcome, io.stderr, consent, io.signal))) {
			return io.signal.aborted ? exitCodes.cancelled : exitCodes.failed;
		}
	} else if (result.changes.length > 0 && !afterRun) {
		io.stderr.write(
			`${result.changes.length} proposed change(s) in ${runFile(runDir, 'patch')} (use --apply to write them)\n`,
		);
	}
	afterRun?.(outcome);
	return exitCodes[result.status];
}

function fail(io: CliIo, message: string, code = 1): number {
	io.stderr.write(`massgen: ${message}\n`);
	return code;
}

async function readStdin(io: CliIo): Promise<string> {
	if (!io.stdin) return '';
	const chunks: Buffer[] = [];
	for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
	return Buffer.concat(chunks).toString('utf8');
}

async function isDirectory(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isDirectory();
	} catch {
		return false;
	}
}
