import * as vscode from 'vscode';

/** The single "MassGen" log channel (Output view; level follows "Developer: Set Log Level"). */
export function createLog(): vscode.LogOutputChannel {
	return vscode.window.createOutputChannel('MassGen', { log: true });
}
