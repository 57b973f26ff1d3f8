/** The process as a CLI command sees it (main.ts passes the real one; tests pass fakes). */
export interface CliIo {
	readonly stdout: NodeJS.WriteStream;
	readonly stderr: NodeJS.WriteStream;
	readonly env: NodeJS.ProcessEnv;
	/** Aborted on SIGINT/SIGTERM. */
	readonly signal: AbortSignal;
	/** Where approval answers are read (when it and stderr are terminals). */
	readonly stdin?: NodeJS.ReadStream;
}
