/**
 * The Codex CLI inside our bubblewrap (`cliSandbox.ts`). The SDK spawns one executable
 * (`codexPathOverride`) with its own arguments and has no spawn hook, so the adapter hands it a
 * launcher: a shell script that `exec`s bwrap with the agent's sandbox around the real binary.
 * The SDK's abort then ends bwrap itself, and with it the CLI's PID namespace. The script lives
 * beside the agent's `CODEX_HOME`, never inside a folder the CLI can write.
 */
import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import type { Codex, CodexOptions } from '@openai/codex-sdk';
import { quote } from 'shell-quote';
import { isStrictBubblewrap } from '../../exec/sandbox/detectSandbox.js';
import { onPath } from './cliBinaries.js';
import { cliSandboxArgs, realFolder, type CliSandbox } from './cliSandbox.js';

/** The lane's note where bubblewrap cannot start. */
export const codexUnsandboxedNote =
	'(no bubblewrap sandbox here: the Codex CLI runs as a plain process; it has no shell, and its patches ' +
	'stay in its folder by its own sandbox policy)';

export interface CodexPlace extends Omit<CliSandbox, 'install'> {
	readonly bwrap: string;
	/** The agent's own folder beside its `CODEX_HOME`, read-only in the sandbox: the launcher goes here. */
	readonly launcherDir: string;
}

/**
 * The client options with the CLI inside bubblewrap: the launcher as its executable, around the
 * config's `cli_path` or else the SDK's own binary (whose helper folders go first on `PATH`, as
 * the SDK would put them).
 */
export async function containedClient(
	codex: typeof Codex,
	client: CodexOptions,
	place: CodexPlace,
): Promise<CodexOptions> {
	const { bwrap, launcherDir, ...sandbox } = place;
	const env = { ...client.env };
	const given = client.codexPathOverride;
	const binary: CodexBinary =
		given === undefined
			? sdkCodexBinary(new codex({}))
			: { path: isAbsolute(given) ? given : (onPath(given, env['PATH']) ?? given), pathDirs: [] };
	// Inside bwrap a missing binary would be bwrap's own failure: the SDK's spawn error instead.
	if (!existsSync(binary.path)) throw new Error(`spawn ${binary.path} ENOENT`);
	const path = [...binary.pathDirs, ...(env['PATH'] ?? '').split(delimiter).filter(Boolean)];
	if (path.length > 0) env['PATH'] = path.join(delimiter);
	const launcher = await writeCodexLauncher(launcherDir, bwrap, binary.path, {
		...sandbox,
		path: env['PATH'],
	});
	return { ...client, env, codexPathOverride: launcher };
}

/** The binary the SDK would run and the folders it would put first on the CLI's PATH. */
export interface CodexBinary {
	readonly path: string;
	readonly pathDirs: readonly string[];
}

/** The SDK's own choice of binary (its native package), read from a client it made. */
export function sdkCodexBinary(client: unknown): CodexBinary {
	const exec = (client as { exec?: { executablePath?: unknown; pathDirs?: unknown } }).exec;
	if (typeof exec?.executablePath !== 'string') {
		throw new Error('Unable to locate Codex CLI: the Codex SDK did not name its binary');
	}
	const dirs = Array.isArray(exec.pathDirs) ? exec.pathDirs.filter((dir) => typeof dir === 'string') : [];
	return { path: exec.executablePath, pathDirs: dirs };
}

/** Writes the launcher into `dir` (a folder of ours the sandbox keeps read-only); returns its path. */
export async function writeCodexLauncher(
	dir: string,
	bwrap: string,
	cli: string,
	sandbox: Omit<CliSandbox, 'install'>,
): Promise<string> {
	const binary = realFolder(cli);
	// The native package keeps its helpers (`codex-resources/`, `codex-path/`) beside `bin/`.
	// Codex sandboxes its patches with a bubblewrap of its own: it needs a user namespace inside ours.
	const args = cliSandboxArgs({
		...sandbox,
		install: dirname(dirname(binary)),
		strict: isStrictBubblewrap(bwrap),
		nestedUserNamespaces: true,
	});
	const file = join(dir, 'codex-in-sandbox');
	await writeFile(file, `#!/bin/sh\nexec ${quote([bwrap, ...args, '--', binary])} "$@"\n`, { mode: 0o700 });
	await chmod(file, 0o700);
	return file;
}
