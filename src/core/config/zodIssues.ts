import type { z } from 'zod';
import { formatPath } from './configIssue.js';
import { didYouMeanSuffix } from './didYouMean.js';

/** A schema error, still to be positioned in the document. */
export interface SchemaError {
	readonly path: (string | number)[];
	readonly target: 'key' | 'value';
	readonly code: string;
	readonly message: string;
}

/**
 * Turns zod issues (parsed with `reportInput: true`) into short messages that name the key,
 * say what was expected and show what was found. Custom issues carry their code in `params`.
 */
export function fromZodIssues(issues: readonly z.core.$ZodIssue[]): SchemaError[] {
	return issues.flatMap((issue): SchemaError[] => {
		const path = issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part));
		if (issue.code === 'unrecognized_keys') {
			return issue.keys.map((key) => ({
				path: [...path, key],
				target: 'key',
				code: 'unknown-key',
				message: `unknown key '${key}' in ${formatPath(path)}`,
			}));
		}
		if (issue.code === 'invalid_union' && 'errors' in issue && issue.errors.length > 0) {
			// The branch whose shape fit (no type mismatch at its root) explains the problem best.
			const fitting = issue.errors.filter(
				(branch) => !branch.some((inner) => inner.path.length === 0 && inner.code === 'invalid_type'),
			);
			if (fitting.length === 1) {
				return fromZodIssues(
					fitting[0]!.map(
						(inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as z.core.$ZodIssue,
					),
				);
			}
		}
		if (issue.code === 'custom') {
			const params = (issue.params ?? {}) as { code?: string; target?: 'key' | 'value' };
			const message = path.length > 0 ? `${formatPath(path)}: ${issue.message}` : issue.message;
			return [{ path, target: params.target ?? 'value', code: params.code ?? 'invalid', message }];
		}
		const isBackendType = path.at(-1) === 'type' && path.at(-2) === 'backend';
		const code =
			isBackendType && issue.code === 'invalid_value'
				? 'unknown-backend-type'
				: issue.code.replace(/_/g, '-');
		return [{ path, target: 'value', code, message: describe(issue, path) }];
	});
}

function describe(issue: z.core.$ZodIssue, path: (string | number)[]): string {
	const where = formatPath(path);
	const input = issue.input;
	switch (issue.code) {
		case 'invalid_type':
			if (input === undefined && path.length > 0) {
				return `${formatPath(path.slice(0, -1))}: missing required key '${String(path.at(-1))}'`;
			}
			return `${where}: expected ${article(issue.expected)}, got ${show(input)}`;
		case 'invalid_value': {
			const values = issue.values.map((v) => `'${String(v)}'`).join(', ');
			const guess = typeof input === 'string' ? didYouMeanSuffix(input, issue.values.map(String)) : '';
			if (path.at(-1) === 'type' && path.at(-2) === 'backend') {
				return `${where}: unknown backend type ${show(input)}${guess}; known types: ${issue.values.join(', ')}`;
			}
			return `${where}: ${show(input)} is not one of ${values}${guess}`;
		}
		case 'too_small':
			return `${where}: ${bound(issue.origin, issue.minimum, issue.inclusive, 'small')}, got ${show(input)}`;
		case 'too_big':
			return `${where}: ${bound(issue.origin, issue.maximum, issue.inclusive, 'big')}, got ${show(input)}`;
		case 'invalid_format':
			return `${where}: ${issue.message.replace(/^Invalid input: /, '')}, got ${show(input)}`;
		case 'not_multiple_of':
			return `${where}: must be a multiple of ${String(issue.divisor)}, got ${show(input)}`;
		default:
			return `${where}: ${issue.message}`;
	}
}

function bound(
	origin: string,
	limit: number | bigint,
	inclusive: boolean | undefined,
	side: 'small' | 'big',
): string {
	const n = String(limit);
	if (origin === 'array' || origin === 'set') {
		return side === 'small' ? `needs at least ${n} item${n === '1' ? '' : 's'}` : `allows at most ${n} items`;
	}
	if (origin === 'string') {
		if (side === 'small') return n === '1' ? 'must not be empty' : `needs at least ${n} characters`;
		return `allows at most ${n} characters`;
	}
	if (side === 'small') return inclusive ? `must be at least ${n}` : `must be greater than ${n}`;
	return inclusive ? `must be at most ${n}` : `must be less than ${n}`;
}

function article(expected: string): string {
	if (expected === 'object') return 'a mapping (key: value)';
	if (expected === 'array') return 'a list';
	if (expected === 'int') return 'an integer';
	return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** The offending value, short: `'hot'`, `5`, `a list`, `a mapping`, `null`. */
function show(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
	if (typeof value === 'object') return 'a mapping';
	if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
	return String(value);
}
