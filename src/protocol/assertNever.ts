/**
 * Exhaustive-switch guard: `default: return assertNever(message);` fails to compile when a union
 * member is not handled, and throws if an unexpected value slips through at run time.
 */
export function assertNever(value: never, what = 'value'): never {
	const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : value;
	throw new Error(`Unexpected ${what}: ${JSON.stringify(type) ?? String(type)}`);
}
