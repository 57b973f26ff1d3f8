import type { AttachmentChip } from '../../protocol/attachmentChip.js';
import { defaultFolder } from '../common/runFolders.js';
import { pickContext, type ContextPickerDeps } from './contextPicker.js';
import { scriptedPickerUi, vscodePickerUi, type PickerUi } from './pickerUi.js';

/** What "Add Context…" put in the ask box, and what the user was told (left out, not offered). */
export interface AddedContext {
	/** The user cancelled a prompt: nothing was added. */
	readonly cancelled: boolean;
	readonly chips: readonly AttachmentChip[];
	readonly notes: readonly string[];
}

/**
 * "MassGen: Add Context…": the context pickers, then the chips into the panel's ask box (the
 * panel opens). `arg.answers` answers the prompts in advance (see `scriptedPickerUi`); the data
 * offered is VS Code's either way.
 */
export async function addContext(
	deps: ContextPickerDeps,
	panel: { addAttachmentChips(chips: readonly AttachmentChip[]): Promise<void> },
	arg?: unknown,
): Promise<AddedContext> {
	const answers = scriptedAnswers(arg);
	const folder = defaultFolder();
	const notes: string[] = [];
	const note = (message: string) => notes.push(message);
	const prompts = answers && folder ? scriptedPickerUi(answers, folder.uri, note) : vscodePickerUi;
	const ui: PickerUi = {
		pick: (items, options) => prompts.pick(items, options),
		openDialog: (options) => prompts.openDialog(options),
		notify: (message) => {
			note(message);
			prompts.notify(message);
		},
	};
	const chips = await pickContext(deps, ui);
	if (chips?.length) await panel.addAttachmentChips(chips);
	return { cancelled: chips === undefined, chips: chips ?? [], notes };
}
function scriptedAnswers(arg: unknown): string[][] | undefined {
	if (typeof arg !== 'object' || arg === null || !('answers' in arg)) return undefined;
	const { answers } = arg as { answers: unknown };
	const valid =
		Array.isArray(answers) &&
		answers.every((answer) => Array.isArray(answer) && answer.every((entry) => typeof entry === 'string'));
	if (!valid) throw new Error('Add Context: `answers` must be a list of string lists');
	return answers as string[][];
}
