import * as vscode from 'vscode';
import { ProviderError } from '../../core/providers/spec/providerError.js';
import { errorMessage } from '../../core/util/errorMessage.js';

const provider = 'vscode_lm';

/**
 * Any failure of a `vscode.lm` call as the core's ProviderError. Cancellation wins over
 * everything; LanguageModelError codes (documented: NoPermissions, Blocked,
 * NotFound, Unknown) are mapped by code, never by message text.
 */
export function toProviderError(error: unknown, signal: AbortSignal, model: string): ProviderError {
	if (ProviderError.is(error)) return error;
	const message = thrownText(error);
	if (signal.aborted || error instanceof vscode.CancellationError) {
		return new ProviderError({
			provider,
			kind: 'aborted',
			message: 'the request was cancelled',
			cause: error,
		});
	}
	if (error instanceof vscode.LanguageModelError) {
		switch (error.code) {
			case 'NoPermissions':
				return new ProviderError({
					provider,
					kind: 'auth',
					message: `VS Code language model '${model}': no permission (allow MassGen to use it when VS Code asks): ${message}`,
					cause: error,
				});
			case 'Blocked':
				return new ProviderError({
					provider,
					kind: 'auth',
					message: `VS Code language model '${model}' is blocked for this extension: ${message}`,
					cause: error,
				});
			case 'NotFound':
				return new ProviderError({
					provider,
					kind: 'invalid-response',
					message: `VS Code language model '${model}' is not available: ${message}`,
					cause: error,
				});
			default:
				// `Unknown` and future codes: the model itself failed (the cause holds the real error).
				return new ProviderError({
					provider,
					kind: 'server',
					message: `VS Code language model '${model}': ${message}`,
					cause: error,
				});
		}
	}
	return new ProviderError({
		provider,
		kind: 'server',
		message: `VS Code language model '${model}': ${message}`,
		cause: error,
	});
}

/**
 * A thrown value's text. VS Code 1.139's workbench fails a request whose image it cannot decode with
 * a DOM event, which reaches the extension as the plain object `{"isTrusted":true}` (lmMembers.itest.ts
 * saw it for a PNG signature without an image): said so instead of `[object Object]`.
 */
function thrownText(error: unknown): string {
	const message = errorMessage(error);
	if (message !== '[object Object]') return message;
	const json = JSON.stringify(error) ?? '';
	return json.includes('"isTrusted"')
		? `the workbench failed the request with an event (${json.slice(0, 100)}): an attached image it cannot decode fails so`
		: json.slice(0, 200);
}
