/** A problem found in a config file, positioned for editors (`file:line:col`) and for humans. */
export interface ConfigIssue {
	readonly severity: 'error' | 'warning';
	/** Stable machine-readable kind, e.g. `yaml-duplicate-key`, `unknown-key`, `missing-api-key`. */
	readonly code: string;
	readonly message: string;
	readonly file: string;
	/** 1-based. */
	readonly line: number;
	/** 1-based. */
	readonly col: number;
	/** Path in the YAML document (`['agents', 0, 'backend', 'temperature']`); `[]` for the whole file. */
	readonly path: readonly (string | number)[];
}

/** `file:line:col: error|warning: message`, the format of compilers and of `massgen validate`. */
export function formatIssue(issue: ConfigIssue): string {
	return `${issue.file}:${issue.line}:${issue.col}: ${issue.severity}: ${issue.message}`;
}

/** Position order; at one position errors come before warnings. Returns a new array. */
export function sortIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
	return [...issues].sort(
		(a, b) =>
			a.line - b.line || a.col - b.col || (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1),
	);
}

/** `agents[0].backend.temperature`: how messages name a location. */
export function formatPath(path: readonly (string | number)[]): string {
	let out = '';
	for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
	return out || '(root)';
}

/** True when any issue is an error, i.e. the config cannot be used. */
export function hasErrors(issues: readonly ConfigIssue[]): boolean {
	return issues.some((issue) => issue.severity === 'error');
}
