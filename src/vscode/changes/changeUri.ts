import * as vscode from 'vscode';

/**
 * Read-only virtual documents of a run's change set: `massgen-change://<version>/<path>?<runId>`.
 * Every version of a file has the same path, so the multi-file diff does not take base ↔ proposed
 * for a rename, and the label formatter in package.json (`resourceLabelFormatters`) shows the
 * workspace-relative path. The run id is in the query (an authority would be lower-cased).
 */
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
	return vscode.Uri.from({ scheme: changeScheme, authority: version, path: `/${path}`, query: runId });
}

export interface ParsedChangeUri {
	readonly runId: string;
	readonly version: ChangeVersion;
	readonly path: string;
}

export function parseChangeUri(uri: vscode.Uri): ParsedChangeUri | undefined {
	if (uri.scheme !== changeScheme || !isChangeVersion(uri.authority)) return undefined;
	const path = uri.path.replace(/^\/+/, '');
	if (!path || !uri.query) return undefined;
	return { runId: uri.query, version: uri.authority, path };
}
