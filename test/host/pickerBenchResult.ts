// What the in-host picker bench (pickerBench.ts) reports to its launcher (test/bench/picker.bench.ts). No `vscode` import.

export const pickerBenchPrefix = 'massgen-picker-bench';

export interface PickerSample {
	/** Request → the first streamed fragment (a text part; a run event batch); undefined: none came. */
	readonly firstMs: number | undefined;
	readonly totalMs: number;
}

export interface PickerBenchResult {
	readonly vscodeVersion: string;
	readonly node: string;
	readonly runs: number;
	/** The extension's own `activate()` (its `activationMs`), and with loading dist/extension.js. */
	readonly activation: { readonly activateMs: number; readonly withLoadMs: number };
	readonly samples: Readonly<Record<'picker' | 'tryStart' | 'command', readonly PickerSample[]>>;
}
