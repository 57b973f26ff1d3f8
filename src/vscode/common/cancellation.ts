import * as vscode from 'vscode';
import type { IDisposable } from './lifecycle.js';

/**
 * The one place where VS Code cancellation and the core's AbortSignal meet.
 * The core only ever sees AbortSignals; VS Code APIs only ever see CancellationTokens.
 */

/** An AbortSignal that aborts when `token` is cancelled. Dispose to stop listening. */
export function abortSignalFromToken(
	token: vscode.CancellationToken,
): { readonly signal: AbortSignal } & IDisposable {
	const controller = new AbortController();
	if (token.isCancellationRequested) {
		controller.abort(new vscode.CancellationError());
		return { signal: controller.signal, dispose() {} };
	}
	const listener = token.onCancellationRequested(() => controller.abort(new vscode.CancellationError()));
	return { signal: controller.signal, dispose: () => listener.dispose() };
}

/** A CancellationTokenSource cancelled when `signal` aborts (for `vscode.lm` and other VS Code APIs). */
export function tokenSourceFromSignal(signal: AbortSignal): vscode.CancellationTokenSource {
	const source = new vscode.CancellationTokenSource();
	if (signal.aborted) {
		source.cancel();
		return source;
	}
	const onAbort = () => source.cancel();
	signal.addEventListener('abort', onAbort, { once: true });
	const dispose = source.dispose.bind(source);
	source.dispose = () => {
		signal.removeEventListener('abort', onAbort);
		dispose();
	};
	return source;
}
