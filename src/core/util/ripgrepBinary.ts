/**
 * Where a ripgrep binary is: the CLI's (`MASSGEN_RIPGREP`, `rg` on `PATH`) or the one VS Code ships.
 * Node built-ins only, so the extension bundle can use it without the tools.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The ripgrep a run uses by default: `MASSGEN_RIPGREP` (a binary, or `none` for the tool's own
 * walker), else `rg` on `PATH`; null when there is none.
 */
export function ripgrepOnPath(
	env: Readonly<Record<string, string | undefined>> = process.env,
): string | null {
	const chosen = env['MASSGEN_RIPGREP'];
	if (chosen !== undefined && chosen !== '') return chosen === 'none' ? null : chosen;
	const names = process.platform === 'win32' ? ['rg.exe'] : ['rg'];
	const folders = (env['PATH'] ?? env['Path'] ?? '').split(delimiter).filter((folder) => folder !== '');
	return folders.flatMap((folder) => names.map((name) => join(folder, name))).find(existsSync) ?? null;
}

/**
 * The ripgrep VS Code ships under its `appRoot`, or null: `@vscode/ripgrep-universal` (VS Code 1.139:
 * every platform's binary in `bin/<platform>-<arch>/`) or `@vscode/ripgrep` (earlier: `bin/`).
 */
export function ripgrepInEditor(
	appRoot: string,
	platform: NodeJS.Platform = process.platform,
	arch: string = process.arch,
): string | null {
	const name = platform === 'win32' ? 'rg.exe' : 'rg';
	const candidates = ['node_modules', 'node_modules.asar.unpacked'].flatMap((folder) => [
		join(appRoot, folder, '@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`, name),
		join(appRoot, folder, '@vscode', 'ripgrep', 'bin', name),
	]);
	return candidates.find(existsSync) ?? null;
}
