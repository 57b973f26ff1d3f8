import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ApprovalBroker } from '../core/permissions/approvalBroker.js';
import { readDotenv } from '../core/config/apiKeys.js';
import { formatIssue } from '../core/config/configIssue.js';
import { AttachmentError, type AttachmentRequest } from '../core/context/attachment.js';
import type { RunStatus } from '../contract/runEvents.js';
import { Redactor } from '../core/secrets/redactor.js';
import { environmentSecrets } from '../core/secrets/runSecrets.js';
import { EstimateDeclinedError } from '../core/run/estimateDeclinedError.js';
import { runSession, type RunSessionOutcome } from '../core/run/runSession.js';
import { followUpOf, type FollowUp } from '../core/sessions/followUp.js';
import { SessionError } from '../core/sessions/historyOf.js';
import { chooseConfigFile } from '../core/team/chooseConfigFile.js';
import { resolveTeam, type ResolvedTeam } from '../core/team/resolveTeam.js';
import { trustListing } from '../core/trust/workspaceTrust.js';
import { applyWinner } from './applyWinner.js';
import { secretWriteConsent } from './secretWritePrompt.js';
import { cliApprovalPolicy, TerminalApprover } from './approvalPrompt.js';
import type { CliCommand } from './args.js';
import type { CliIo } from './cliIo.js';
import { createDisplay } from './display/createDisplay.js';
import { confirmEstimate } from './estimatePrompt.js';
import { cliProviderToolsPolicy } from './providerToolsPrompt.js';
import { defaultStorePath, FilePermissionStore } from './permissionStore.js';
import { redactedIo } from './redactedIo.js';
import { cliWorkspaceTrust } from './trustPrompt.js';
import { defaultTrustStorePath, FileTrustStore } from './trustStore.js';
import { shippedConfigsDir } from './shippedFiles.js';
import { errorMessage } from '../core/util/errorMessage.js';

const exitCodes: Record<RunStatus, number> = { completed: 0, failed: 2, timeout: 3, cancelled: 4 };

/** `massgen run`: architecture §8. Returns the exit code. */
export async function runCommand(
	command: Extract<CliCommand, { kind: 'run' }>,
	callerIo: CliIo,
	/** Given the finished run (chat's `/accept`, `/diff`); it then tells the user about proposed changes. */
	afterRun?: (outcome: RunSessionOutcome) => void,
): Promise<number> {
	// Every byte on stdout and stderr passes the run's redactor; it learns the team's secrets below.
	let redactor = new Redactor(environmentSecrets(callerIo.env));
	const io = redactedIo(callerIo, () => redactor);
	const root = resolve(command.workspace);
	if (!(await isDirectory(root))) return fail(io, `workspace '${command.workspace}' is not a folder`);
	const piped = command.stdin && (await readStdin(io));
	if (piped !== undefined && piped.trim() === '') return fail(io, 'stdin (-) was empty', 2);
	const question = command.stdin === 'question' ? piped!.trim() : command.question;
	const followUp = command.continue && (await continueFrom(root, command.continue.id, io));
	if (followUp === null) return 1;
	const attachments: AttachmentRequest[] = [
		...command.attach.map((path) => ({ kind: 'path' as const, path })),
		...command.attachDiff.map((source) => ({ kind: 'diff' as const, source })),
		...(command.stdin === 'attachment' ? [{ kind: 'text' as const, source: 'stdin', text: piped! }] : []),
	];
	const team = await loadTeam(root, command.config, io);
	if (!team) return 1;
	const interactive = io.stdin?.isTTY === true && io.stderr.isTTY === true;
	// Before anything starts or any run directory exists: what the folder's own config would run.
	const workspaceTrust = await cliWorkspaceTrust({
		root,
		listing: trustListing({
			workspaceRoot: root,
			config: team.config,
			file: team.file,
			keys: team.keys,
			...(team.source ? { locate: (path) => team.source!.locate(path, 'value') } : {}),
		}),
		store: new FileTrustStore(defaultTrustStorePath(io.env)),
		flag: command.trustWorkspace === true,
		input: interactive ? io.stdin : undefined,
		output: io.stderr,
	});
	if (workspaceTrust === null) return 1;
	const display = command.json ? undefined : createDisplay(io.stderr);
	const broker = new ApprovalBroker({ policy: cliApprovalPolicy(command.approvals ?? 'ask', interactive) });
	const approver =
		interactive && io.stdin
			? new TerminalApprover(broker, {
					input: io.stdin,
					output: io.stderr,
					pause: () => display?.pause?.(),
					resume: () => display?.resume?.(),
				})
			: undefined;
	let outcome: RunSessionOutcome;
	try {
		outcome = await runSession({
			team,
			keys: team.keys,
			workspaceRoot: root,
			question,
			...(followUp ?? {}),
			attachments,
			signal: io.signal,
			shippedConfigsDir: shippedConfigsDir(),
			...(command.timeoutSeconds ? { coordinationTimeoutMs: command.timeoutSeconds * 1000 } : {}),
			budget: {
				...(command.maxCostUsd ? { maxCostUsd: { limit: command.maxCostUsd, source: '--max-cost' } } : {}),
				...(command.maxTokens ? { maxTokens: { limit: command.maxTokens, source: '--max-tokens' } } : {}),
			},
			confirmEstimate: (estimate, caps) =>
				confirmEstimate(estimate, caps, {
					output: io.stderr,
					input: interactive ? io.stdin : undefined,
					yes: command.approvals === 'yes',
				}),
			workspaceTrust,
			tools: {
				broker,
				// Workspace Trust's meaning (run_command on): commands run sandboxed in a copy. The
				// folder's own servers, CLI paths and key hosts are `workspaceTrust`'s.
				trusted: true,
				allowUnsandboxedCommands: command.unsandboxedCommands === true,
				store: new FilePermissionStore(defaultStorePath(io.env), root),
			},
			providerTools: cliProviderToolsPolicy(command.providerTools ?? 'ask', {
				output: io.stderr,
				input: interactive ? io.stdin : undefined,
			}),
			onRedactor: (learned) => (redactor = learned),
			onEvent: (event) => {
				// The tools' warnings (a server that did not start) are said in every mode, as they happen.
				if (event.type === 'notice' && event.source === 'tools') {
					io.stderr.write(`massgen: ${event.message}\n`);
				}
				display?.onEvent(event);
				if (command.json) io.stdout.write(`${JSON.stringify(event)}\n`);
			},
			onLogError: (error) => io.stderr.write(`massgen: run log: ${errorMessage(error)}\n`),
		});
	} catch (error) {
		// Ctrl-C while attachments were read: no run started, and none is reported.
		if (io.signal.aborted) return fail(io, 'cancelled', exitCodes.cancelled);
		if (AttachmentError.is(error)) return fail(io, error.message, 2);
		if (EstimateDeclinedError.is(error)) return 1;
		throw error;
	} finally {
		approver?.dispose();
	}
	display?.close();
	const { result, runDir } = outcome;
	io.stderr.write(`run log: ${runDir}\n`);
	const decisions = outcome.ledger?.entries ?? [];
	if (decisions.length > 0) {
		const denied = decisions.filter((entry) => entry.decision === 'deny').length;
		io.stderr.write(
			`tool permissions: ${decisions.length} decision(s), ${denied} denied (${outcome.ledger?.path ?? 'permissions.jsonl'})\n`,
		);
	}
	if (result.error) io.stderr.write(`error: ${result.error}\n`);
	// A failed run already said why (its error is the reason).
	if (result.budget?.reason && result.status !== 'failed') {
		io.stderr.write(`budget: ${result.budget.reason}\n`);
	}
	if (!command.json && result.finalAnswer !== null) io.stdout.write(`${result.finalAnswer.trimEnd()}\n`);
	if (command.apply && result.changes.length > 0 && result.status !== 'cancelled') {
		const consent = secretWriteConsent({
			output: io.stderr,
			input: interactive ? io.stdin : undefined,
			yes: command.approvals === 'yes',
		});
		if (!(await applyWinner(root, outcome, io.stderr, consent))) return exitCodes.failed;
	} else if (result.changes.length > 0 && !afterRun) {
		io.stderr.write(
			`${result.changes.length} proposed change(s) in ${join(runDir, 'changes.patch')} (use --apply to write them)\n`,
		);
	}
	afterRun?.(outcome);
	return exitCodes[result.status];
}

interface LoadedTeam extends ResolvedTeam {
	readonly keys: { env: NodeJS.ProcessEnv; dotenv: Record<string, string> };
}

/** Loads and checks the team config; prints every issue with its position. Undefined = exit 1. */
async function loadTeam(
	root: string,
	explicit: string | undefined,
	io: CliIo,
): Promise<LoadedTeam | undefined> {
	const choice = await chooseConfigFile(root, shippedConfigsDir(), explicit);
	const keys = { env: io.env, dotenv: await readDotenv(root) };
	const resolution = await resolveTeam({ ...choice, keys });
	const { dropped, issues } = resolution.ok ? resolution.team : resolution;
	for (const left of dropped) io.stderr.write(`default team: leaving out ${left.id}: ${left.why}\n`);
	for (const issue of issues) io.stderr.write(`${formatIssue(issue)}\n`);
	if (issues.some((issue) => issue.code === 'no-available-agents')) {
		// Nothing usable here: the scripted demo team needs no key and no server.
		const demo = join(shippedConfigsDir(), 'demo.yaml');
		io.stderr.write(
			`massgen: to try MassGen without a key or a local model: massgen run --config ${demo} "QUESTION"\n`,
		);
	}
	return resolution.ok ? { ...resolution.team, keys } : undefined;
}

/** The follow-up's history and session, said on stderr; null (after the reason) when there is none. */
async function continueFrom(root: string, id: string | undefined, io: CliIo): Promise<FollowUp | null> {
	try {
		const followUp = await followUpOf(root, id);
		const { parentRunId } = followUp.session;
		const turns = `${followUp.history.length} earlier turn(s)`;
		io.stderr.write(
			followUp.session.id === undefined
				? `massgen: forking from run ${parentRunId} (${turns}): a new session\n`
				: `massgen: continuing session ${followUp.session.id} after run ${parentRunId} (${turns})\n`,
		);
		return followUp;
	} catch (error) {
		if (!SessionError.is(error)) throw error;
		fail(io, error.message);
		return null;
	}
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
