import * as vscode from 'vscode';
import { DisposableStore } from '../common/lifecycle.js';
import { TerminalHistory } from './terminalHistory.js';

/**
 * Feeds shell integration's execution events into a `TerminalHistory` from activation on (an
 * execution's output can only be read from its start); a closed terminal's commands are dropped.
 */
export function recordTerminalHistory(): {
	history: TerminalHistory<vscode.Terminal>;
	disposable: DisposableStore;
} {
	const history = new TerminalHistory<vscode.Terminal>();
	const disposable = new DisposableStore();
	disposable.add(vscode.window.onDidStartTerminalShellExecution((event) => history.started(event.execution)));
	disposable.add(
		vscode.window.onDidEndTerminalShellExecution(
			(event) => void history.ended(event.terminal, event.terminal.name, event.execution, event.exitCode),
		),
	);
	disposable.add(vscode.window.onDidCloseTerminal((terminal) => history.closed(terminal)));
	return { history, disposable };
}
