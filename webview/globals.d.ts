/** Replaced at build time: `false` in `build:webview`, `true` only in the test harness's build. */
declare const MASSGEN_TEST: boolean;

/** Injected by VS Code into every webview; callable once. */
declare function acquireVsCodeApi(): {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
};
