import { hasErrorMark } from '../core/util/errorMark.js';

const mark = Symbol.for('massgen.UsageError');

/** A command line the CLI cannot take: printed with the usage, exit 2. */
export class UsageError extends Error {
	readonly [mark] = true;

	/** Survives duplicate module copies (the engine bundle), unlike `instanceof`. */
	static is(value: unknown): value is UsageError {
		return hasErrorMark(value, mark);
	}
}
