/** The candidate closest to `word` by edit distance, if it is close enough to be a likely typo. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
	const lower = word.toLowerCase();
	const limit = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
	let best: string | undefined;
	let bestDistance = limit + 1;
	for (const candidate of candidates) {
		const distance = editDistance(lower, candidate.toLowerCase());
		if (distance < bestDistance) {
			best = candidate;
			bestDistance = distance;
		}
	}
	return best;
}

/** ` (did you mean 'x'?)` or an empty string. */
export function didYouMeanSuffix(word: string, candidates: Iterable<string>): string {
	const guess = didYouMean(word, candidates);
	return guess === undefined ? '' : ` (did you mean '${guess}'?)`;
}

/** Levenshtein distance, counting an adjacent swap as one edit (a common typo). */
function editDistance(a: string, b: string): number {
	const rows: number[][] = [];
	for (let i = 0; i <= a.length; i++) {
		rows.push([i]);
		for (let j = 1; j <= b.length; j++) {
			if (i === 0) {
				rows[0]!.push(j);
				continue;
			}
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
				value = Math.min(value, rows[i - 2]![j - 2]! + 1);
			}
			rows[i]!.push(value);
		}
	}
	return rows[a.length]![b.length]!;
}
