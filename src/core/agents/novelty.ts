import type { Sensitivity } from './types.js';

/** Jaccard similarity of lower-cased, whitespace-split token sets (MassGen's measure). */
export function jaccardSimilarity(a: string, b: string): number {
	const left = new Set(a.toLowerCase().split(/\s+/).filter(Boolean));
	const right = new Set(b.toLowerCase().split(/\s+/).filter(Boolean));
	if (left.size === 0 && right.size === 0) return 1;
	let shared = 0;
	for (const token of left) if (right.has(token)) shared++;
	return shared / (left.size + right.size - shared);
}

/** Similarity above which a new answer is rejected; null = no check. */
export function noveltyThreshold(requirement: Sensitivity): number | null {
	return requirement === 'balanced' ? 0.7 : requirement === 'strict' ? 0.5 : null;
}
