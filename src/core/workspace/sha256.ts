import { createHash } from 'node:crypto';

/**
 * sha256 (hex) of a text's UTF-8 encoding. Every base hash in a change set and every check in
 * `applyChanges` goes through this one function, so both sides always agree.
 */
export function sha256(text: string): string {
	return createHash('sha256').update(text, 'utf8').digest('hex');
}
