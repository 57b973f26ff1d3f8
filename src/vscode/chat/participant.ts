import * as vscode from 'vscode';
import type { AttachmentRequest } from '../../core/context/attachment.js';
import { reviewQuestion } from '../../core/codeReview/reviewPrompt.js';
import { commandIds } from '../common/commandIds.js';
import { massgenVendor } from '../lm/memberChatModels.js';
import type { ChatModelInfo } from '../lm/pickChatModel.js';
import type { RunStarter } from '../run/runStarter.js';
import type { FinishedRun, RunRequest } from '../run/runTypes.js';
import { readPlanDepth } from '../common/settings.js';
import type { PlanDocuments } from '../plans/planDocuments.js';
import { planRunRequest } from '../plans/planRunRequest.js';
import {
	changeCommand,
	chatFollowups,
	type ChatChanges,
	lastRunId,
	type ParticipantResultMetadata,
} from './changeFollowups.js';
import { streamChangedFiles, streamCitedLines } from './responseLinks.js';
import { phaseLine, runEnding, voteSummary } from './runSummary.js';

export type { ParticipantResultMetadata } from './changeFollowups.js';

/** The participant's id, as `contributes.chatParticipants` declares it. */
export const participantId = 'massgen.chat';

/** What the handler needs of the run controller. */
export interface ParticipantDeps {
	readonly runs: RunStarter;
	readonly changes: ChatChanges;
	/** `/plan`: the plan document its run made. */
	readonly planDocuments: Pick<PlanDocuments, 'outcome'>;
}

/** The part of `ChatResponseStream` the handler writes to (a recording object in tests). */
export type ParticipantStream = Pick<
	vscode.ChatResponseStream,
	'markdown' | 'progress' | 'button' | 'anchor' | 'reference'
>;

/**
 * `@massgen` (docs/editor.md): runs the team on the chat request with its references as attachments,
 * streams one progress line per phase, then the final answer, the vote, the changed files as anchors
 * and the cited lines as references, and buttons to the panel and the change review. `/review`
 * reviews the referenced file or selection (or the active editor's); `/plan` has the team plan the
 * task read-only and shows the plan document it made (src/vscode/plans); `/withModel` asks with the
 * chat's selected model as one more member; `/changes` and `/accept` (the follow-ups) run the change
 * review's commands on the last answer's change set.
 */
export async function handleChatRequest(
	request: Pick<vscode.ChatRequest, 'prompt' | 'command' | 'references'> & {
		readonly model?: ChatModelInfo;
	},
	context: Pick<vscode.ChatContext, 'history'>,
	stream: ParticipantStream,
	token: vscode.CancellationToken,
	deps: ParticipantDeps,
): Promise<vscode.ChatResult> {
	if (request.command === 'accept' || request.command === 'changes') {
		return changeCommand(request.command, lastRunId(context.history, participantId), stream, deps.changes);
	}
	const built =
		request.command === 'review'
			? await reviewRequest(request)
			: request.command === 'plan'
				? planRequest(request)
				: askRequest(request, context);
	const withModel =
		request.command === 'withModel' && typeof built !== 'string' ? addedModel(request.model) : undefined;
	if (typeof withModel === 'string') {
		stream.markdown(withModel);
		return { errorDetails: { message: withModel } };
	}
	if (typeof built === 'string') {
		stream.markdown(built);
		return { errorDetails: { message: built } };
	}
	// This run's own events (other runs of the window may be going too).
	const outcome = await deps.runs.tryStart(
		withModel ? { ...built, addModel: withModel } : built,
		token,
		(batch) => {
			for (const event of batch.events) {
				// Kept in the response (progress lines are transient): the answer may lack what this agent missed.
				if (event.type === 'notice') stream.markdown(noticeMarkdown(event.message));
				const line = phaseLine(event);
				if (line) stream.progress(line);
			}
		},
	);
	if (token.isCancellationRequested) return { metadata: {} };
	if (!('run' in outcome)) {
		const message = vscode.l10n.t('The MassGen run did not start: {0}.', outcome.reason);
		stream.markdown(message);
		return { errorDetails: { message } };
	}
	if (built.kind === 'plan') await showPlan(outcome.run, stream, deps.planDocuments);
	else await showResult(outcome.run, stream);
	const metadata: ParticipantResultMetadata = {
		runId: outcome.run.result.runId,
		...(built.kind === 'ask' ? { question: built.question } : {}),
	};
	return { metadata };
}

/** The chat's selected model as a member, or why it cannot be one. */
function addedModel(model: ChatModelInfo | undefined): ChatModelInfo | string {
	if (!model) return vscode.l10n.t('No model is selected in the chat to add to the team.');
	if (model.vendor === massgenVendor) {
		return vscode.l10n.t(
			'The selected model is a MassGen team itself; pick another model in the chat to add it to the team.',
		);
	}
	return model;
}

function askRequest(
	request: Pick<vscode.ChatRequest, 'prompt' | 'references'>,
	context: Pick<vscode.ChatContext, 'history'>,
): RunRequest | string {
	const question = request.prompt.trim();
	if (!question) {
		return vscode.l10n.t('Ask the MassGen team a question, e.g. `@massgen why does this test fail?`');
	}
	const attachments = request.references.flatMap(referenceAttachment);
	// A follow-up continues the conversation when the previous turn was ours: the session of the run
	// that turn names (the chat keeps it across reloads; the window's memory does not).
	const previous = context.history.at(-1);
	const ours = previous instanceof vscode.ChatResponseTurn && previous.participant === participantId;
	const runId = lastRunId(context.history, participantId);
	return {
		question,
		kind: 'ask',
		attachments,
		continueConversation: ours,
		...(typeof runId === 'string' ? { continueFrom: runId } : {}),
	};
}

/** `/plan TASK`: a plan run at the `massgen.plan.depth` depth, the references attached. */
function planRequest(request: Pick<vscode.ChatRequest, 'prompt' | 'references'>): RunRequest | string {
	const task = request.prompt.trim();
	if (!task) return vscode.l10n.t('Describe the task to plan, e.g. `@massgen /plan add a --verbose flag`');
	return planRunRequest({
		task,
		depth: readPlanDepth(),
		attachments: request.references.flatMap(referenceAttachment),
	});
}

/** A reference the team can read: a file (`vscode.Uri`) or a range of it (`vscode.Location`). */
function referenceAttachment(reference: vscode.ChatPromptReference): AttachmentRequest[] {
	const { value } = reference;
	if (value instanceof vscode.Uri) return [{ kind: 'path', path: relativePath(value) }];
	if (value instanceof vscode.Location) {
		return [
			{
				kind: 'file',
				path: relativePath(value.uri),
				range: { start: value.range.start.line + 1, end: value.range.end.line + 1 },
			},
		];
	}
	if (typeof value === 'string' && value.trim()) return [{ kind: 'text', source: reference.id, text: value }];
	return [];
}

/** The file and lines `/review` reviews: the first file reference, else the active editor's selection. */
async function reviewRequest(request: Pick<vscode.ChatRequest, 'references'>): Promise<RunRequest | string> {
	const target = reviewTarget(request.references);
	if (!target) {
		return vscode.l10n.t('Reference a file or a selection (`#file`, `#selection`) or open a file to review.');
	}
	if (target.uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(target.uri)) {
		return vscode.l10n.t('The team reviews files of the open workspace folder.');
	}
	const doc = await vscode.workspace.openTextDocument(target.uri);
	const whole = !target.range || target.range.isEmpty;
	const startLine = whole ? 0 : target.range!.start.line;
	// A range ending at column 0 of a line does not include that line.
	const end = target.range?.end;
	const endLine = whole
		? doc.lineCount
		: end!.character === 0 && end!.line > startLine
			? end!.line
			: end!.line + 1;
	const path = relativePath(doc.uri);
	const question = reviewQuestion({
		path,
		languageId: doc.languageId,
		lines: doc.getText().split(/\r?\n/),
		startLine: startLine + 1,
		endLine,
	});
	return { question, kind: 'review', review: { uri: doc.uri, path, startLine, endLine } };
}

function reviewTarget(
	references: readonly vscode.ChatPromptReference[],
): { uri: vscode.Uri; range?: vscode.Range } | undefined {
	for (const { value } of references) {
		if (value instanceof vscode.Uri) return { uri: value };
		if (value instanceof vscode.Location) return { uri: value.uri, range: value.range };
	}
	const editor = vscode.window.activeTextEditor;
	return editor && { uri: editor.document.uri, range: editor.selection };
}

function relativePath(uri: vscode.Uri): string {
	return vscode.workspace.asRelativePath(uri, false).replace(/\\/g, '/');
}

/** A notice as plain text (model ids may hold Markdown characters), on a line of its own. */
function noticeMarkdown(message: string): vscode.MarkdownString {
	return new vscode.MarkdownString().appendText(vscode.l10n.t('Note: {0}.', message)).appendMarkdown('\n\n');
}

async function showResult(run: FinishedRun, stream: ParticipantStream): Promise<void> {
	const { result } = run;
	if (result.finalAnswer === null) {
		stream.markdown(runEnding(result));
	} else {
		if (result.status !== 'completed') {
			stream.markdown(vscode.l10n.t('{0} The best answer so far:\n\n', runEnding(result)));
		}
		stream.markdown(result.finalAnswer);
	}
	stream.markdown(vscode.l10n.t('\n\n---\n**Vote:** {0}', voteSummary(result)));
	streamChangedFiles(run, stream);
	await streamCitedLines(run, stream);
	stream.button({ command: commandIds.showPanel, title: vscode.l10n.t('Show MassGen Panel') });
	if (result.changes.length) {
		stream.button({ command: commandIds.reviewChanges, title: vscode.l10n.t('Review Changes') });
	}
}

/**
 * `/plan`'s end: the plan as the document has it (steps with their agreement marks), a link to the
 * document (opened in an editor too), the vote; or the run's ending when there is no plan.
 */
async function showPlan(
	run: FinishedRun,
	stream: ParticipantStream,
	plans: Pick<PlanDocuments, 'outcome'>,
): Promise<void> {
	const outcome = await plans.outcome(run.result.runId);
	if (!outcome || 'reason' in outcome) {
		stream.markdown(vscode.l10n.t('The team made no plan: {0}.', outcome?.reason ?? runEnding(run.result)));
	} else {
		const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(outcome.uri));
		stream.markdown(
			vscode.l10n.t(
				'The team’s plan is saved as a document you own: edit, reorder or delete its steps. Each step says how many agents’ plans had it.',
			),
		);
		stream.markdown('\n\n');
		stream.anchor(outcome.uri, vscode.workspace.asRelativePath(outcome.uri, false));
		stream.markdown('\n\n');
		stream.markdown(withoutFrontMatter(text));
	}
	stream.markdown(vscode.l10n.t('\n\n---\n**Vote:** {0}', voteSummary(run.result)));
	stream.button({ command: commandIds.showPanel, title: vscode.l10n.t('Show MassGen Panel') });
}

function withoutFrontMatter(text: string): string {
	const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n/.exec(text);
	return match ? text.slice(match[0].length) : text;
}

/** Registers `@massgen`; the id must match `contributes.chatParticipants`. */
export function registerChatParticipant(extensionUri: vscode.Uri, deps: ParticipantDeps): vscode.Disposable {
	const participant = vscode.chat.createChatParticipant(participantId, (request, context, stream, token) =>
		handleChatRequest(request, context, stream, token, deps),
	);
	participant.followupProvider = { provideFollowups: (result) => chatFollowups(result, deps.changes) };
	participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'massgen.svg');
	return participant;
}
