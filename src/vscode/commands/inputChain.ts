import * as vscode from 'vscode';

/**
 * Quick inputs asked one after another without the widget closing in between. A closing quick
 * input gives the focus back to what had it; when that is a walkthrough step (its "Set API Key"
 * button), VS Code's page focuses the step again 250 ms later and takes the keyboard from the next
 * input, which then gets the first few characters of a key only. Each input is shown before the
 * previous one is disposed, as VS Code's multi-step input does; `dispose()` closes the last.
 */
export class InputChain implements vscode.Disposable {
	private _current: vscode.QuickInput | undefined;

	/** The accepted item; undefined when the user closed the picker. */
	pick<T extends vscode.QuickPickItem>(
		items: readonly T[],
		options: { title: string; placeholder?: string; matchOnDescription?: boolean },
	): Promise<T | undefined> {
		const pick = vscode.window.createQuickPick<T>();
		pick.items = items;
		pick.title = options.title;
		pick.placeholder = options.placeholder;
		pick.matchOnDescription = options.matchOnDescription ?? false;
		return this._ask(pick, (settle) => pick.onDidAccept(() => settle(pick.activeItems[0])));
	}

	/** The accepted text; Enter does nothing while `validate` names a problem; undefined when closed. */
	input(options: {
		title: string;
		prompt: string;
		password?: boolean;
		validate: (text: string) => string | undefined;
	}): Promise<string | undefined> {
		const box = vscode.window.createInputBox();
		box.title = options.title;
		box.prompt = options.prompt;
		box.password = options.password ?? false;
		return this._ask(box, (settle) =>
			vscode.Disposable.from(
				box.onDidChangeValue((text) => (box.validationMessage = options.validate(text))),
				box.onDidAccept(() => {
					box.validationMessage = options.validate(box.value);
					if (!box.validationMessage) settle(box.value);
				}),
			),
		);
	}

	dispose(): void {
		this._current?.dispose();
		this._current = undefined;
	}

	private _ask<R>(
		input: vscode.QuickInput,
		wire: (settle: (value: R | undefined) => void) => vscode.Disposable,
	): Promise<R | undefined> {
		return new Promise((resolve) => {
			let listeners: vscode.Disposable | undefined;
			const settle = (value: R | undefined) => {
				listeners?.dispose();
				resolve(value);
			};
			// The user moving the focus (to fetch a key) must not close it.
			input.ignoreFocusOut = true;
			listeners = vscode.Disposable.from(
				wire(settle),
				input.onDidHide(() => settle(undefined)),
			);
			input.show();
			this._current?.dispose();
			this._current = input;
		});
	}
}
