/**
 * Where a coding agent's CLI is, when its config has no `cli_path`: an environment variable (the
 * editor sets it from its machine-scope setting, which a workspace cannot change; a terminal user
 * exports it). The config's `cli_path` wins; without either, Claude Code is looked up on `PATH`
 * and Codex uses its SDK's own binary.
 */
export const cliPathVariables = {
	claude_code: 'MASSGEN_CLAUDE_CODE_PATH',
	codex: 'MASSGEN_CODEX_PATH',
} as const;

/** The CLI path for `type` from its variable, if set and not blank. */
export function cliPathFromEnv(
	type: keyof typeof cliPathVariables,
	env: Readonly<Record<string, string | undefined>>,
): string | undefined {
	const value = env[cliPathVariables[type]]?.trim();
	return value ? value : undefined;
}
