/**
 * The words a user steers a running team with, the same in `massgen chat` (one line) and in an
 * inbox file (docs/cli.md#steering-a-run): `/finish` alone finishes now; otherwise optional
 * directives before the text, in any order — `@<agent id>` (that agent only) and `/note` (note only:
 * current votes stand) — then the message. In a file the directives may fill the first line alone.
 */
import type { SteerMessage } from '../../core/run/runControl.js';

export type SteerCommand =
	| { readonly kind: 'finish' }
	| { readonly kind: 'steer'; readonly message: SteerMessage }
	| { readonly kind: 'refused'; readonly reason: string };

export function parseSteerText(raw: string): SteerCommand {
	const text = raw.trim();
	if (text === '/finish') return { kind: 'finish' };
	let rest = text;
	let agentId: string | undefined;
	let noteOnly = false;
	for (;;) {
		const word = /^(\S+)(\s+|$)/.exec(rest);
		if (!word) break;
		const token = word[1]!;
		if (token === '/note') {
			if (noteOnly) return refused('/note is given twice');
			noteOnly = true;
		} else if (token.startsWith('@') && token.length > 1) {
			if (agentId !== undefined) return refused('a message goes to one agent (@id) or to all of them');
			agentId = token.slice(1);
		} else {
			break;
		}
		rest = rest.slice(word[0].length);
	}
	if (rest === '/finish') return refused('/finish takes no agent and no note: write it alone');
	// Its length is the core's to check (`SteerInbox.problem`, with the run's bounds): one rule, one reason.
	if (rest === '') return refused('the message has no text');
	return {
		kind: 'steer',
		message: { text: rest, ...(agentId !== undefined ? { agentId } : {}), ...(noteOnly ? { noteOnly } : {}) },
	};
}

function refused(reason: string): SteerCommand {
	return { kind: 'refused', reason };
}
