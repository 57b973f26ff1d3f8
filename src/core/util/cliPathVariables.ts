/**
 * Where a coding agent's CLI is, when its config has no `cli_path`: the host's typed paths
 * (`HostPaths.codingAgents`: the editor's machine-scope setting, which a workspace cannot change; the
 * CLI's exported variables below). The config's `cli_path` wins; without either, Claude Code is
 * looked up on `PATH` and Codex uses its SDK's own binary. No imports, so the extension bundle reads
 * the variables without the providers (as `ripgrepBinary.ts`).
 */
export const cliPathVariables = {
	claude_code: 'MASSGEN_CLAUDE_CODE_PATH',
	codex: 'MASSGEN_CODEX_PATH',
} as const;

/** The host's CLI path per coding-agent type (blank values left out). */
export type CodingAgentPaths = { readonly [type in keyof typeof cliPathVariables]?: string };

/** The CLI paths the variables name, where set and not blank. */
export function codingAgentPathsFromEnv(env: Readonly<Record<string, string | undefined>>): CodingAgentPaths {
	const paths: { -readonly [type in keyof CodingAgentPaths]: string } = {};
	for (const type of Object.keys(cliPathVariables) as (keyof typeof cliPathVariables)[]) {
		const value = env[cliPathVariables[type]]?.trim();
		if (value) paths[type] = value;
	}
	return paths;
}
