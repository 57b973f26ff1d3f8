import { hasErrorMark } from '../util/errorMark.js';

const mark = Symbol.for('massgen.EstimateDeclinedError');

/** The user declined the run at the estimate (nothing was started, no run directory made). */
export class EstimateDeclinedError extends Error {
	override readonly name = 'EstimateDeclinedError';
	readonly [mark] = true;

	/** Survives duplicate module copies (the engine bundle), unlike `instanceof`. */
	static is(value: unknown): value is EstimateDeclinedError {
		return hasErrorMark(value, mark);
	}
}
