import { isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { Document, LineCounter } from 'yaml';

/** 1-based line and column. */
export interface Position {
	readonly line: number;
	readonly col: number;
}

interface Ranged {
	readonly range?: readonly [number, number, number] | null;
}

/**
 * Where `path` is written in `doc`: the key of the last segment (`target: 'key'`, for unknown
 * keys) or its value (`'value'`, for bad values; the key when the value is empty). A path that
 * does not exist (a missing key) falls back to the nearest ancestor: its key when it is a map
 * entry, else its first character.
 */
export function locate(
	doc: Document,
	lineCounter: LineCounter,
	path: readonly (string | number)[],
	target: 'key' | 'value',
): Position {
	let node: unknown = doc.contents;
	let keyNode: Ranged | undefined;
	let complete = true;
	for (const segment of path) {
		if (isAlias(node)) node = node.resolve(doc);
		if (isMap(node)) {
			const pair = node.items.find((item) => keyText(item.key) === String(segment));
			if (!pair) {
				complete = false;
				break;
			}
			keyNode = pair.key as Ranged;
			node = pair.value;
		} else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
			keyNode = undefined;
			node = node.items[segment];
		} else {
			complete = false;
			break;
		}
	}
	const valueStart = startOf(node as Ranged | null);
	const keyStart = startOf(keyNode);
	let offset: number | undefined;
	if (complete && target === 'value') offset = isEmpty(node) ? (keyStart ?? valueStart) : valueStart;
	else offset = keyStart ?? valueStart;
	return offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset);
}

function keyText(key: unknown): string | undefined {
	if (isScalar(key)) return String(key.value);
	return typeof key === 'string' ? key : undefined;
}

function startOf(node: Ranged | null | undefined): number | undefined {
	return node?.range ? node.range[0] : undefined;
}

/** `key:` with nothing after it: a null scalar with an empty range. */
function isEmpty(node: unknown): boolean {
	if (node === null || node === undefined) return true;
	const range = (node as Ranged).range;
	return !range || range[0] === range[1];
}
