import { hasErrorMark } from '../util/errorMark.js';

const mark = Symbol.for('massgen.PlanError');

/** A plan that cannot be made, read or found: the reason in words (with `file:line:col` when it is the file's). */
export class PlanError extends Error {
	override readonly name = 'PlanError';
	readonly [mark] = true;

	/** Survives duplicate module copies (the engine bundle), unlike `instanceof`. */
	static is(value: unknown): value is PlanError {
		return hasErrorMark(value, mark);
	}
}
