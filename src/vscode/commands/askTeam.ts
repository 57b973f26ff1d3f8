import * as vscode from 'vscode';
import { editorAttachments, type EditorAttachments, type EditorState } from '../context/editorAttachments.js';
import { editorStateOf } from '../context/editorState.js';
import type { RunController } from '../run/runController.js';
import type { FinishedRun } from '../run/runTypes.js';
import { chooseRunFolder } from '../common/runFolders.js';

/** The question passed to "MassGen: Ask Team": a string, or `{ question }` (e.g. from a keybinding's args). */
export function questionArgument(arg: unknown): string | undefined {
	const value =
		typeof arg === 'string'
			? arg
			: typeof arg === 'object' && arg !== null
				? (arg as { question?: unknown }).question
				: undefined;
	return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** `{ attachEditor: false }` in the arguments asks without the active editor's file. */
function attachEditorArgument(arg: unknown): boolean {
	return !(
		typeof arg === 'object' &&
		arg !== null &&
		(arg as { attachEditor?: unknown }).attachEditor === false
	);
}

/** The active text editor as `editorAttachments` reads it. */
export function activeEditorState(): EditorState | undefined {
	const editor = vscode.window.activeTextEditor;
	return editor && editorStateOf(editor);
}

const basePrompt = () =>
	vscode.l10n.t('The team works on the open workspace (read-only); proposed edits wait for your review.');

/**
 * "MassGen: Ask Team": asks for the question unless it is given, and starts a new conversation (the
 * panel shows the run without taking focus). From an editor the active file (and its selection as
 * a line range) is attached; the input box says so and has a button to ask without it. Resolves
 * when the run ends.
 */
export async function askTeam(
	deps: { runs: RunController; log?: vscode.LogOutputChannel },
	arg?: unknown,
): Promise<FinishedRun | undefined> {
	// First, so the active file attaches relative to the folder the run works on.
	const chosen = await chooseRunFolder(vscode.window.activeTextEditor?.document.uri);
	if (chosen === undefined) return undefined;
	const folder = chosen === 'none' ? undefined : chosen;
	const attached: EditorAttachments =
		folder && attachEditorArgument(arg)
			? editorAttachments(folder.uri.fsPath, activeEditorState())
			: { requests: [] };
	if (attached.note) deps.log?.info(`ask team: ${attached.note}`);
	const given = questionArgument(arg);
	const asked = given ? { question: given, attach: true } : await askQuestion(attached);
	if (!asked) return undefined;
	const attachments = asked.attach ? attached.requests : [];
	if (attached.label && !asked.attach) deps.log?.info(`ask team: asked without ${attached.label}`);
	// The panel opens itself (without focus) when the run starts.
	return deps.runs.start({
		question: asked.question,
		kind: 'ask',
		...(folder ? { folder: folder.uri } : {}),
		...(attachments.length ? { attachments } : {}),
	});
}

/** The input box; with an attachment, a title-bar button drops it. */
function askQuestion(
	attached: EditorAttachments,
): Promise<{ question: string; attach: boolean } | undefined> {
	const box = vscode.window.createInputBox();
	let attach = attached.label !== undefined;
	const dropButton: vscode.QuickInputButton = {
		iconPath: new vscode.ThemeIcon('circle-slash'),
		tooltip: vscode.l10n.t('Ask without the file'),
	};
	const describe = () => {
		box.prompt = attach
			? vscode.l10n.t('Attached: {0}. {1}', attached.label ?? '', basePrompt())
			: attached.note
				? vscode.l10n.t('Not attached: {0}. {1}', attached.note, basePrompt())
				: basePrompt();
		box.buttons = attach ? [dropButton] : [];
	};
	box.title = vscode.l10n.t('MassGen: Ask Team');
	box.placeholder = vscode.l10n.t('Ask the team a question…');
	box.ignoreFocusOut = true;
	describe();
	return new Promise((resolve) => {
		box.onDidTriggerButton((button) => {
			if (button !== dropButton) return;
			attach = false;
			describe();
		});
		box.onDidChangeValue(() => (box.validationMessage = undefined));
		box.onDidAccept(() => {
			const question = box.value.trim();
			if (!question) {
				box.validationMessage = vscode.l10n.t('Type a question for the team.');
				return;
			}
			resolve({ question, attach });
			box.hide();
		});
		box.onDidHide(() => {
			resolve(undefined);
			box.dispose();
		});
		box.show();
	});
}
