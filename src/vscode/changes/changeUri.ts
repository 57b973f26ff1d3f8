import * as vscode from 'vscode';

/** Read-only virtual documents of a run's change set: `massgen-change:/<runId>/<version>/<path>`. */
export const changeScheme = 'massgen-change';

/**
 * `base` (what the agents read), `final` (the winner's text), `proposed` (base + the selected
 * hunks: what Accept writes), or an answer label `agentN.k` (that answer's overlay).
 */
export type ChangeVersion = string;

const versionPattern = /^(?:base|final|proposed|agent\d+\.\d+)$/;

export function isChangeVersion(value: string): boolean {
	return versionPattern.test(value);
}

/** The URI of one version of one file; no content ever goes into the URI. */
export function changeUri(runId: string, version: ChangeVersion, path: string): vscode.Uri {
	return vscode.Uri.from({ scheme: changeScheme, path: `/${runId}/${version}/${path}` });
}

export interface ParsedChangeUri {
	readonly runId: string;
	readonly version: ChangeVersion;
	readonly path: string;
}

export function parseChangeUri(uri: vscode.Uri): ParsedChangeUri | undefined {
	if (uri.scheme !== changeScheme) return undefined;
	const match = /^\/([^/]+)\/([^/]+)\/(.+)$/.exec(uri.path);
	if (!match || !isChangeVersion(match[2]!)) return undefined;
	return { runId: match[1]!, version: match[2]!, path: match[3]! };
}
