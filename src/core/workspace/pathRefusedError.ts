/**
 * Thrown by overlay operations on a path that `Workspace.resolve` refuses. Tools turn it into an
 * `isError` outcome whose text is `reason`.
 */
export class PathRefusedError extends Error {
	override readonly name = 'PathRefusedError';

	constructor(
		/** The path as it was given. */
		readonly path: string,
		/** Human-readable refusal, e.g. "refused: '.env' is a secrets file". */
		readonly reason: string,
	) {
		super(reason);
	}

	static is(error: unknown): error is PathRefusedError {
		return error instanceof PathRefusedError;
	}
}
