/**
 * The environment a command gets, built from an allow-list: the parent's secrets (API keys,
 * `DATABASE_URL`, tokens under any name) never pass, whatever they are called.
 */

/** Names passed through from the parent: how to find programs, language and time zone. */
const passed = new Set(['PATH', 'LANG', 'LANGUAGE', 'TZ']);
/** Windows: `cmd.exe` and most programs need these to start at all. */
const windowsPassed = new Set(['SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'WINDIR']);

export interface CommandEnvironmentOptions {
	/** The scratch home. */
	readonly home: string;
	readonly tempDir: string;
	/** Git stops looking for a repository here (the copy has none; the user's must not be found). */
	readonly ceiling?: string;
}

export function commandEnvironment(
	parent: Readonly<Record<string, string | undefined>>,
	options: CommandEnvironmentOptions,
): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(parent)) {
		if (value === undefined) continue;
		if (passed.has(key) || key.startsWith('LC_') || windowsPassed.has(key.toUpperCase())) out[key] = value;
	}
	return {
		...out,
		HOME: options.home,
		TMPDIR: options.tempDir,
		// Non-interactive: no pagers, prompts or colours; `CI=1` so test runners do not watch.
		CI: '1',
		PAGER: 'cat',
		GIT_PAGER: 'cat',
		GIT_TERMINAL_PROMPT: '0',
		NO_COLOR: '1',
		FORCE_COLOR: '0',
		TERM: 'dumb',
		...(options.ceiling ? { GIT_CEILING_DIRECTORIES: options.ceiling } : {}),
	};
}
