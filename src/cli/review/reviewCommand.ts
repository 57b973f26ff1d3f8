/**
 * `massgen review` (docs/cli.md#massgen-review): the team reviews a git diff headless (the team call
 * `massgen mcp`'s review_changes makes), and the review is printed as text or JSON, written as SARIF,
 * and gated by `--fail-on`. Nothing is written to the workspace: proposed fixes stay pending in the
 * run directory. Git runs as for `--attach-diff` (`core/context/hostGit.ts`): nothing the
 * repository's config names runs.
 */
import { stat } from 'node:fs/promises';
import { version } from '../../../package.json';
import type { MergedFinding } from '../../core/codeReview/agreement.js';
import { diffReviewQuestion } from '../../core/codeReview/diffReviewPrompt.js';
import { severityOrder } from '../../core/codeReview/findings.js';
import { reviewOutcome, type ReviewOutcome } from '../../core/codeReview/reviewOutcome.js';
import { AttachmentError } from '../../core/context/attachment.js';
import { gitDiff } from '../../core/context/gitDiff.js';
import { readRunResult } from '../../core/runStore/readResult.js';
import { atomicWrite } from '../../core/util/atomicWrite.js';
import type { CliIo } from '../cliIo.js';
import { teamCall, type TeamCallOutcome } from '../headless/teamCall.js';
import { progressLine } from '../mcp/progressLine.js';
import type { ReviewArgs } from './reviewArgs.js';
import { reviewSarif } from './reviewSarif.js';
import { emptyWords, reviewText } from './reviewText.js';

/** The exit codes (docs/cli.md#massgen-review); 5 is the gate's alone. */
export const reviewExit = {
	ok: 0,
	usageOrConfig: 1,
	failed: 2,
	timedOut: 3,
	cancelled: 4,
	gate: 5,
} as const;

const refusalExit: Record<Extract<TeamCallOutcome, { ok: false }>['refused'], number> = {
	busy: reviewExit.failed,
	workspace: reviewExit.usageOrConfig,
	config: reviewExit.usageOrConfig,
	team: reviewExit.usageOrConfig,
	trust: reviewExit.usageOrConfig,
	'follow-up': reviewExit.usageOrConfig,
	attachment: reviewExit.failed,
	estimate: reviewExit.failed,
	budget: reviewExit.failed,
	cancelled: reviewExit.cancelled,
};

export async function reviewCommand(command: ReviewArgs, io: CliIo): Promise<number> {
	const say = (text: string) => {
		for (const line of text.split('\n')) io.stderr.write(`massgen: ${line}\n`);
	};
	const { workspace, source } = command;
	if (
		!(await stat(workspace).then(
			(info) => info.isDirectory(),
			() => false,
		))
	) {
		say(`workspace '${workspace}' is not a folder`);
		return reviewExit.usageOrConfig;
	}
	// Only the changed files' names (every one "refused" here): nothing to review, no team run.
	try {
		const listed = await gitDiff(workspace, source, () => 'listed', io.signal);
		if (listed.omitted.length === 0) {
			say(`nothing to review: ${emptyWords(source)}`);
			return await report(command, io, { agreed: [], single: [], of: 0, highestAgreed: null }, null);
		}
	} catch (error) {
		if (!AttachmentError.is(error)) throw error;
		say(error.message.replace('cannot attach the git diff', 'cannot review the changes'));
		return reviewExit.failed;
	}
	const outcome = await teamCall({
		workspaceRoot: workspace,
		question: diffReviewQuestion(source),
		attachments: [{ kind: 'diff', source }],
		...(command.config ? { configFile: command.config } : {}),
		signal: io.signal,
		budget: {
			...(command.maxCostUsd ? { maxCostUsd: { limit: command.maxCostUsd, source: '--max-cost' } } : {}),
			...(command.maxTokens ? { maxTokens: { limit: command.maxTokens, source: '--max-tokens' } } : {}),
		},
		...(command.timeoutSeconds ? { coordinationTimeoutMs: command.timeoutSeconds * 1000 } : {}),
		...(command.noInstructions ? { instructions: false } : {}),
		env: io.env,
		onNote: say,
		onEvent: (event) => {
			const line = progressLine(event);
			if (line) say(line);
		},
	});
	if (!outcome.ok) {
		say(outcome.message);
		return refusalExit[outcome.refused];
	}
	say(`run log: ${outcome.runDir}`);
	if (outcome.status === 'cancelled') return reviewExit.cancelled;
	if (outcome.finalAnswer === null) {
		say(`the review ended without an answer (${outcome.status})${outcome.error ? `: ${outcome.error}` : ''}`);
		return outcome.status === 'timeout' ? reviewExit.timedOut : reviewExit.failed;
	}
	// The run's result as written to its directory: redacted with every secret the run knew.
	const read = await readRunResult(outcome.runDir, outcome.runId);
	if (!read.ok) {
		say(`cannot read the review's result: ${read.reason}`);
		return reviewExit.failed;
	}
	if (outcome.changedFiles.length > 0) {
		say(`the team proposes fixes to ${outcome.changedFiles.join(', ')}; NOT applied, pending in the run:`);
		say(outcome.applyHint);
	}
	const code = await report(command, io, reviewOutcome(read.result), outcome);
	return outcome.status === 'timeout' && code !== reviewExit.failed ? reviewExit.timedOut : code;
}

/** Prints the review (text or JSON), writes the SARIF file, and returns the gate's exit code. */
async function report(
	command: ReviewArgs,
	io: CliIo,
	review: ReviewOutcome,
	run: Extract<TeamCallOutcome, { ok: true }> | null,
): Promise<number> {
	const { failOn, source } = command;
	const gated =
		failOn !== undefined &&
		review.highestAgreed !== null &&
		severityOrder.indexOf(review.highestAgreed) <= severityOrder.indexOf(failOn);
	if (command.json) {
		const json = {
			runId: run?.runId ?? null,
			status: run?.status ?? 'nothing-to-review',
			diff: source,
			agents: review.of,
			highestAgreed: review.highestAgreed,
			failOn: failOn ?? null,
			failed: gated,
			agreed: review.agreed.map(findingJson),
			single: review.single.map(findingJson),
			fixes:
				run && run.changedFiles.length > 0
					? { files: run.changedFiles, runDir: run.runDir, applyHint: run.applyHint }
					: null,
			usage: run?.usage ?? null,
		};
		io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
	} else {
		io.stdout.write(`${run ? reviewText(review, source) : `Nothing to review: ${emptyWords(source)}.`}\n`);
	}
	if (command.sarif) {
		const log = reviewSarif({
			outcome: review,
			workspace: command.workspace,
			source,
			runId: run?.runId ?? null,
			toolVersion: version,
		});
		try {
			await atomicWrite(command.sarif, `${JSON.stringify(log, null, 2)}\n`);
		} catch (error) {
			io.stderr.write(`massgen: cannot write the SARIF file ${command.sarif}: ${(error as Error).message}\n`);
			return reviewExit.failed;
		}
		io.stderr.write(`massgen: SARIF written to ${command.sarif}\n`);
	}
	if (gated) {
		io.stderr.write(
			`massgen: an agreed finding is ${review.highestAgreed} (--fail-on ${failOn}): exit ${reviewExit.gate}\n`,
		);
		return reviewExit.gate;
	}
	return reviewExit.ok;
}

function findingJson(finding: MergedFinding) {
	return {
		path: finding.path ?? null,
		line: finding.line,
		endLine: finding.endLine,
		severity: finding.severity,
		title: finding.title,
		message: finding.message,
		raisedBy: finding.agents.length,
		agents: finding.agents,
		inWinningReview: finding.inWinner,
		reasons: finding.reasons,
	};
}
