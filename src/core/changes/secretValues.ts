/**
 * A change set can hold a secret value the run knows (a key from the environment, `.env` or the
 * config): the run directory, the patch and every output show it as `[redacted]`, but an accept
 * writes the change's real text. Such files are marked so the review and `--apply` say so before
 * writing (by path: the value itself is never named).
 */
import type { Redactor } from '../secrets/redactor.js';
import type { FileChange } from '../../contract/fileChange.js';

/** Paths whose new text holds a secret value that their base did not (a file that already had it is not marked). */
export function filesWithSecretValues(changes: readonly FileChange[], redactor: Redactor): string[] {
	if (redactor.needles.length === 0) return [];
	return changes
		.filter(({ content, base }) => {
			if (content === null) return false;
			return redactor.needles.some((needle) => content.includes(needle) && !(base ?? '').includes(needle));
		})
		.map((change) => change.path);
}
