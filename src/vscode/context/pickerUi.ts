/**
 * The prompts the context pickers show: VS Code's quick pick and open dialog, or (for the
 * "Add Context…" command's `answers` argument, which in-host tests use) a list of answers given in
 * advance. Either way the data offered comes from the real VS Code APIs.
 */
import * as vscode from 'vscode';

export interface PickerUi {
	/** The chosen items; undefined when the user cancels. */
	pick<T extends vscode.QuickPickItem>(
		items: readonly T[],
		options: { readonly title: string; readonly placeHolder: string; readonly canPickMany: boolean },
	): Promise<readonly T[] | undefined>;
	openDialog(options: vscode.OpenDialogOptions): Promise<readonly vscode.Uri[] | undefined>;
	/** Why something was not offered or not attached. */
	notify(message: string): void;
}

export const vscodePickerUi: PickerUi = {
	async pick(items, options) {
		const { title, placeHolder } = options;
		if (options.canPickMany) {
			return vscode.window.showQuickPick([...items], { title, placeHolder, canPickMany: true });
		}
		const item = await vscode.window.showQuickPick([...items], { title, placeHolder });
		return item && [item];
	},
	openDialog: async (options) => vscode.window.showOpenDialog(options),
	notify: (message) => void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: {0}', message)),
};

/**
 * Answers each prompt with the next entry of `answers`: quick pick items by label (codicons left
 * out), dialog files by workspace-relative path. A prompt past the end cancels, as does an answer
 * that names no item (`note` is told which items there were). Notifications are not shown.
 */
export function scriptedPickerUi(
	answers: readonly (readonly string[])[],
	folder: vscode.Uri,
	note: (message: string) => void,
): PickerUi {
	let next = 0;
	const answer = () => answers[next++];
	return {
		async pick(items) {
			const labels = answer();
			if (!labels) return undefined;
			const chosen = labels.map((label) => items.find((item) => plainLabel(item.label) === label));
			if (chosen.every((item) => item !== undefined)) return chosen as (typeof items)[number][];
			note(
				`no item ${JSON.stringify(labels)} among ${JSON.stringify(items.map((i) => plainLabel(i.label)))}`,
			);
			return undefined;
		},
		async openDialog() {
			const paths = answer();
			return paths?.map((path) => vscode.Uri.joinPath(folder, path));
		},
		notify: () => undefined,
	};
}

export function plainLabel(label: string): string {
	return label.replace(/\$\([^)]*\)\s*/g, '');
}
