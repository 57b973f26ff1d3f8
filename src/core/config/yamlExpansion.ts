import { isAlias, isCollection, isPair, isScalar } from 'yaml';
import type { Alias, Document } from 'yaml';

/**
 * How large a YAML document becomes once its aliases are expanded, measured on the syntax tree
 * (characters of every key and scalar, each alias counted as the whole node it points to) and
 * without building anything. yaml's `maxAliasCount` only limits aliases *inside* anchors, so
 * 300 aliases of one 1 MB anchored string pass it and expand to 300 MB. Returns the first alias
 * (in document order) at which the running total passes `cap`, or undefined if it never does.
 */
export function aliasPastCap(doc: Document, cap: number): Alias | undefined {
	const sizes = new Map<unknown, number>();
	let total = 0;
	let culprit: Alias | undefined;

	/** Size of a node's expansion; `top` is the outermost alias being expanded, if any. */
	const measure = (node: unknown, top: Alias | undefined): number => {
		if (culprit !== undefined) return 0;
		const known = sizes.get(node);
		if (known !== undefined) {
			total += known;
			if (total > cap) culprit = top;
			return known;
		}
		const before = total;
		// Marked before descending: a node that contains an alias to itself counts once.
		sizes.set(node, 0);
		if (isAlias(node)) measure(node.resolve(doc), top ?? node);
		else if (isScalar(node)) {
			total += String(node.value).length;
			if (total > cap && top !== undefined) culprit = top;
		} else if (isCollection(node)) {
			for (const item of node.items) {
				if (isPair(item)) {
					measure(item.key, top);
					measure(item.value, top);
				} else measure(item, top);
			}
		}
		sizes.set(node, total - before);
		return total - before;
	};
	measure(doc.contents, undefined);
	return culprit;
}
