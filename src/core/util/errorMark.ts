/**
 * How an error class is told across bundles: the class sets `readonly [mark] = true` with
 * `const mark = Symbol.for('massgen.<Name>')` (one symbol in every copy of the module) and offers
 * `static is(value)` over `hasErrorMark`. `instanceof` fails where the extension handles an error of
 * the engine bundle (`dist/engine.js`), and the error's `name` is anybody's to set.
 */
export function hasErrorMark(value: unknown, mark: symbol): boolean {
	return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[mark] === true;
}
