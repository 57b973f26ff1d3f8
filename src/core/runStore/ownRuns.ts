/**
 * Which run directories this machine made. They live inside the workspace, so a cloned repository
 * can ship its own (`.massgen/runs/<id>/result.json`, `changes-log.jsonl`): its "earlier turn"
 * would reach every agent of a `--continue` as the user's own words, and a revert would write its
 * changes log's `before` texts into the workspace. Nothing inside the workspace can prove a run is
 * ours, so the proof is kept outside it: `RunLogWriter.create` appends each new run's id to a file
 * in the user's state folder (`$XDG_STATE_HOME/massgen/runs/`, `~/.local/state/…`,
 * `%LOCALAPPDATA%\massgen\runs`; the same base as the workspace locks), one file per workspace,
 * named by the hash of its realpath. The CLI and the editor read the same file.
 *
 * A run not in the record is "not made on this machine": listed with that mark and read only up to
 * a small cap, never continued or reverted. An HMAC over the run files under a per-user key was
 * weighed: the changes log is appended by four writers (accept and revert, CLI and editor) which
 * would all have to re-sign, and it buys nothing the record does not — a run moved with its
 * workspace, or copied from another machine, is foreign under either (adopt it by appending its id
 * to the record file; the refusals name it).
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, open, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { userStateDir } from '../util/stateDir.js';
import { isSafeRunId } from '../../contract/runId.js';

/** The record's size cap when read: a line per run, so millions of runs (the file is the user's own). */
const maxRecordBytes = 16 * 1024 * 1024;

/** The folder of the records: the user's state folder, never the workspace. */
export function ownRunsDir(env: NodeJS.ProcessEnv): string {
	return join(userStateDir(env), 'runs');
}

/** The record file of one workspace (keyed by its realpath, so `./ws` and a link to it share one). */
export async function ownRunsFile(
	workspaceRoot: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
	const real = await realpath(workspaceRoot).catch(() => resolve(workspaceRoot));
	const key = createHash('sha256').update(real).digest('hex').slice(0, 32);
	return join(ownRunsDir(env), `${key}.runs`);
}

/** Records `runId` as made here; called before its directory is created, so no run of ours goes unrecorded. */
export async function recordOwnRun(
	workspaceRoot: string,
	runId: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
	if (!isSafeRunId(runId)) throw new Error(`Run id ${JSON.stringify(runId)} is not a safe directory name.`);
	const file = await ownRunsFile(workspaceRoot, env);
	await mkdir(ownRunsDir(env), { recursive: true, mode: 0o700 });
	// One short O_APPEND write per run: concurrent runs (CLI and editor) never interleave within a line.
	await appendFile(file, `${runId}\n`, { encoding: 'utf8', mode: 0o600 }).catch((error: unknown) => {
		throw new Error(`Could not record run ${runId} in ${file}: ${(error as Error).message}`);
	});
}

/** The ids of the runs this machine made in the workspace; none when there is no record. */
export async function readOwnRuns(
	workspaceRoot: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<ReadonlySet<string>> {
	const file = await ownRunsFile(workspaceRoot, env);
	let text: string;
	try {
		const handle = await open(file, 'r');
		try {
			const buffer = Buffer.alloc(Math.min((await handle.stat()).size, maxRecordBytes));
			const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
			text = buffer.toString('utf8', 0, bytesRead);
		} finally {
			await handle.close();
		}
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
		throw error;
	}
	return new Set(
		text
			.split('\n')
			.map((line) => line.trim())
			.filter(isSafeRunId),
	);
}

/** A run the user asked to continue or revert that this machine did not make. */
export class ForeignRunError extends Error {
	override readonly name = 'ForeignRunError';
}

/** Why `runId` is refused for `action` (`continued`, `reverted`): the reason and how to adopt a run that is truly the user's. */
export async function foreignRunMessage(
	workspaceRoot: string,
	runId: string,
	action: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
	const file = await ownRunsFile(workspaceRoot, env);
	return (
		`run ${runId} was not made on this machine (it is not in ${file}), so it is not ${action}: ` +
		`a cloned repository can ship run folders. If you made it (a moved or copied workspace), add the line ${runId} to that file`
	);
}

/** Throws `ForeignRunError` unless this machine made `runId` in the workspace. */
export async function assertOwnRun(
	workspaceRoot: string,
	runId: string,
	action: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
	if ((await readOwnRuns(workspaceRoot, env)).has(runId)) return;
	throw new ForeignRunError(await foreignRunMessage(workspaceRoot, runId, action, env));
}
