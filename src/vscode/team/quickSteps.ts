import * as vscode from 'vscode';

/** What a step returns when the user pressed Back (undefined: cancelled). */
export const back = Symbol('back');

/** Sees each step as it shows: its name (`members`, `role:0`, `voting`, …) and the widget. */
export type StepHook = (
	name: string,
	input: vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox,
) => void;

export interface BuilderStep {
	readonly name: string;
	readonly title: string;
	readonly step: number;
	readonly totalSteps: number;
	readonly onStep?: StepHook;
}

/**
 * One quick pick step (as VS Code's multi-step input sample): a Back button after the first
 * step; resolves with the accepted items, `back`, or undefined when hidden.
 */
export function askPick<T extends vscode.QuickPickItem>(
	step: BuilderStep,
	items: readonly T[],
	options: {
		placeholder: string;
		canSelectMany?: boolean;
		selected?: readonly T[];
		/** Items Enter does not take (shown for reading, such as evidence lines); all by default. */
		takes?: (item: T) => boolean;
	},
): Promise<readonly T[] | typeof back | undefined> {
	const pick = vscode.window.createQuickPick<T>();
	return run(step, pick, (settle) => {
		pick.items = items;
		pick.placeholder = options.placeholder;
		pick.canSelectMany = options.canSelectMany ?? false;
		pick.matchOnDescription = true;
		if (options.selected?.length) {
			pick.selectedItems = items.filter((item) => options.selected!.includes(item));
		}
		return pick.onDidAccept(() => {
			// Enter with nothing checked takes the highlighted item, as a single pick would.
			const taken =
				pick.canSelectMany && pick.selectedItems.length ? pick.selectedItems : pick.activeItems.slice(0, 1);
			if (options.takes && !taken.every(options.takes)) return;
			settle(taken);
		});
	});
}

/** One input box step; `validate` returns a message for a wrong value (Enter then does nothing). */
export function askInput(
	step: BuilderStep,
	options: { prompt: string; value: string; validate?: (value: string) => string | undefined },
): Promise<string | typeof back | undefined> {
	const input = vscode.window.createInputBox();
	return run(step, input, (settle) => {
		input.prompt = options.prompt;
		input.value = options.value;
		const check = () => (input.validationMessage = options.validate?.(input.value.trim()));
		const changed = input.onDidChangeValue(check);
		const accepted = input.onDidAccept(() => {
			if (!check()) settle(input.value.trim());
		});
		return vscode.Disposable.from(changed, accepted);
	});
}

function run<R>(
	step: BuilderStep,
	input: vscode.QuickPick<never> | vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox,
	wire: (settle: (value: R) => void) => vscode.Disposable,
): Promise<R | typeof back | undefined> {
	return new Promise((resolve) => {
		let done = false;
		const settle = (value: R | typeof back | undefined) => {
			if (done) return;
			done = true;
			resolve(value);
			input.dispose();
		};
		input.title = step.title;
		input.step = step.step;
		input.totalSteps = step.totalSteps;
		input.buttons = step.step > 1 ? [vscode.QuickInputButtons.Back] : [];
		input.ignoreFocusOut = true;
		const disposables = [
			wire(settle),
			input.onDidTriggerButton((button) => {
				if (button === vscode.QuickInputButtons.Back) settle(back);
			}),
			input.onDidHide(() => settle(undefined)),
		];
		input.onDidHide(() => vscode.Disposable.from(...disposables).dispose());
		input.show();
		step.onStep?.(step.name, input as vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox);
	});
}
