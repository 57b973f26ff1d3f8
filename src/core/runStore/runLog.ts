/**
 * The run directory writer: `<workspace>/.massgen/runs/<runId>/` (`runLayout.ts`) with `events.jsonl`
 * streamed during the run and `result.json`, `final-answer.md`, `changes.patch`, `config.yaml`
 * written at the end (also for cancelled, timed-out and failed runs).
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import type { RunEvent } from '../../contract/runEvents.js';
import type { RunResult } from '../../contract/runResult.js';
import { Redactor } from '../secrets/redactor.js';
import { recordOwnRun } from './ownRuns.js';
import { runDirOf, runFile, runsDir } from '../../contract/runLayout.js';
import { removeRunningMarker, writeRunningMarker } from './runningMarker.js';
import { isSafeRunId } from '../../contract/runId.js';
import { assertRealFolder, assertRunsDirInside } from './runsDirGuard.js';

export interface RunLogOptions {
	/** The run's redactor: everything written passes through it (default: URL credentials only). */
	readonly redactor?: Redactor;
	/** How long appended events may wait in memory before a write starts (default 50 ms). */
	readonly flushDelayMs?: number;
	/** Where the user's state folder is looked up (`ownRunsDir`; default `process.env`). */
	readonly env?: NodeJS.ProcessEnv;
	/** The turn this run continues: named in its running marker, so retention keeps that chain meanwhile. */
	readonly parentRunId?: string | null;
}

/** How many fresh ids a new run tries before giving up (a clash needs two runs in one second with one suffix). */
const maxIdAttempts = 16;

/** The run's folder exists already (another run took the id, or it came with the folder). */
export class RunDirTakenError extends Error {
	override readonly name = 'RunDirTakenError';
}

export interface RunLogFinish {
	readonly result: RunResult;
	/** The resolved config, already redacted by the caller (`redactConfig`; redacted again here regardless). */
	readonly configYaml: string;
	/** Unified diff of the winner's change set; empty when there are no changes. */
	readonly patch: string;
}

/** A buffer this large is written at once instead of waiting for the flush timer. */
const MAX_BUFFERED_CHARS = 256 * 1024;

/**
 * Appends events as JSON lines. `append` is synchronous and never throws on I/O: lines are
 * batched and written in order by one chain of writes, so events arriving while a write is
 * pending simply join the next batch. A write failure is reported by `close()`.
 */
export class RunLogWriter {
	private buffer: string[] = [];
	private bufferedChars = 0;
	private writing: Promise<void> = Promise.resolve();
	private timer: NodeJS.Timeout | null = null;
	private failure: unknown = null;
	private closed = false;

	private constructor(
		/** The id the run took (its folder's name). */
		readonly runId: string,
		/** Absolute path of this run's directory. */
		readonly runDir: string,
		private readonly events: FileHandle,
		private readonly redactor: Redactor,
		private readonly flushDelayMs: number,
	) {}

	/**
	 * Creates the run's own directory (and `.massgen/runs/`), marks it running and opens
	 * `events.jsonl` for appending. The folder is made exclusively (never one that exists: two
	 * processes starting in one second never share one), so `runId` is either the id, which fails
	 * with `RunDirTakenError` when its folder exists, or a source of new ids (`newRunId`), tried until
	 * one is free. The writer's `runId` is the one it took.
	 */
	static async create(
		workspaceRoot: string,
		runId: string | (() => string),
		options: RunLogOptions = {},
	): Promise<RunLogWriter> {
		const nextId = typeof runId === 'string' ? () => runId : runId;
		const attempts = typeof runId === 'string' ? 1 : maxIdAttempts;
		// Checked before and after: mkdir follows links, and the run's folder must be a new real one.
		await assertRunsDirInside(workspaceRoot);
		await mkdir(runsDir(workspaceRoot), { recursive: true });
		await assertRunsDirInside(workspaceRoot);
		for (let attempt = 0; attempt < attempts; attempt++) {
			const id = nextId();
			if (!isSafeRunId(id)) throw new Error(`Run id ${JSON.stringify(id)} is not a safe directory name.`);
			const runDir = runDirOf(workspaceRoot, id);
			// A folder that is there already is never recorded as ours (it may have come with the repository).
			if (await present(runDir)) continue;
			// Before the folder exists: a run directory not in the record is one a repository planted.
			await recordOwnRun(workspaceRoot, id, options.env);
			try {
				await mkdir(runDir);
			} catch (error) {
				// Another process made it between the check and here: it is one of ours too, recorded by it.
				if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
				throw error;
			}
			await assertRealFolder(runDir);
			await writeRunningMarker(runDir, options.parentRunId ?? null);
			const events = await open(runFile(runDir, 'events'), 'a');
			return new RunLogWriter(
				id,
				runDir,
				events,
				options.redactor ?? new Redactor(),
				options.flushDelayMs ?? 50,
			);
		}
		throw new RunDirTakenError(
			typeof runId === 'string'
				? `The run directory ${runDirOf(workspaceRoot, runId)} exists already.`
				: `No free run id under ${runsDir(workspaceRoot)} after ${maxIdAttempts} tries.`,
		);
	}

	/** Queues one event as one line (secrets redacted). */
	append(event: RunEvent): void {
		if (this.closed) throw new Error('The run log is closed.');
		const line = `${this.redactor.stringify(event)}\n`;
		this.buffer.push(line);
		this.bufferedChars += line.length;
		if (this.bufferedChars >= MAX_BUFFERED_CHARS) {
			void this.flush();
		} else if (this.timer === null) {
			this.timer = setTimeout(() => void this.flush(), this.flushDelayMs);
			// A pending flush must not keep a finished CLI alive; close() flushes anyway.
			this.timer.unref();
		}
	}

	/** Starts writing the buffered lines; resolves once everything appended so far was written. */
	flush(): Promise<void> {
		if (this.timer !== null) {
			clearTimeout(this.timer);
			this.timer = null;
		}
		if (this.buffer.length > 0) {
			const chunk = this.buffer.join('');
			this.buffer = [];
			this.bufferedChars = 0;
			this.writing = this.writing.then(() => this.writeChunk(chunk));
		}
		return this.writing;
	}

	/** Writes the end-of-run files; each appears whole or not at all (temp file + rename). */
	async finish({ result, configYaml, patch }: RunLogFinish): Promise<void> {
		if (this.closed) throw new Error('The run log is closed.');
		await this.flush();
		await writeAtomic(runFile(this.runDir, 'result'), `${this.redactor.stringify(result, '  ')}\n`);
		if (result.finalAnswer !== null) {
			await writeAtomic(runFile(this.runDir, 'finalAnswer'), this.redactor.text(result.finalAnswer));
		}
		if (patch.trim() !== '') await writeAtomic(runFile(this.runDir, 'patch'), this.redactor.text(patch));
		await writeAtomic(runFile(this.runDir, 'config'), this.redactor.text(configYaml));
	}

	/** Flushes and closes `events.jsonl`; rejects if any event could not be written. Idempotent. */
	async close(): Promise<void> {
		if (this.closed) return;
		await this.flush();
		this.closed = true;
		await this.events.close();
		await removeRunningMarker(this.runDir);
		if (this.failure !== null) {
			throw new Error(`Could not write ${runFile(this.runDir, 'events')}: ${String(this.failure)}`);
		}
	}

	private async writeChunk(chunk: string): Promise<void> {
		if (this.failure !== null) return;
		try {
			await this.events.appendFile(chunk, 'utf8');
		} catch (error) {
			this.failure = error;
		}
	}
}

async function writeAtomic(path: string, data: string): Promise<void> {
	const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
	try {
		await writeFile(temp, data, 'utf8');
		await rename(temp, path);
	} catch (error) {
		await rm(temp, { force: true });
		throw error;
	}
}

/** Anything at `path`, a dangling link included. */
async function present(path: string): Promise<boolean> {
	return lstat(path).then(
		() => true,
		() => false,
	);
}
