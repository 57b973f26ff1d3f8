/**
 * The CLI's words `parseArgs` cannot read alone: flags with an optional value (`--continue`,
 * `--attach-diff`) taken out by hand, and the number checks the commands' flags share.
 */
import type { DiffSource } from '../core/context/attachment.js';
import { runIdPattern } from '../contract/runId.js';
import { UsageError } from './usageError.js';

export function positiveNumber(text: string | undefined, flag: string, what: string): number | undefined {
	if (text === undefined) return undefined;
	const value = Number(text);
	if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
		throw new UsageError(`${flag} must be a positive ${what}, not '${text}'`);
	}
	return value;
}

export function notNegative(text: string | undefined, flag: string, whole: boolean): number | undefined {
	if (text === undefined) return undefined;
	const value = Number(text);
	if (text.trim() === '' || !Number.isFinite(value) || value < 0 || (whole && !Number.isInteger(value))) {
		throw new UsageError(`${flag} must be a ${whole ? 'whole number' : 'number of days'} ≥ 0, not '${text}'`);
	}
	return value;
}

/**
 * `--continue` takes an optional id, like `--attach-diff`: the next word is the id only when it
 * has the form of a run id (session ids are run ids), so `--continue "why?"` keeps its question.
 */
export function takeContinue(argv: readonly string[]): {
	rest: string[];
	continued?: { id: string | undefined };
} {
	const rest: string[] = [];
	let continued: { id: string | undefined } | undefined;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === '--') {
			rest.push(...argv.slice(i));
			break;
		}
		if (arg !== '--continue' && !arg.startsWith('--continue=')) {
			rest.push(arg);
			continue;
		}
		if (continued) throw new UsageError('give --continue at most once');
		if (arg.startsWith('--continue=')) {
			const id = arg.slice('--continue='.length);
			if (id === '') throw new UsageError('--continue= needs a RUN_ID or SESSION_ID');
			continued = { id };
		} else if (runIdPattern.test(argv[i + 1] ?? '')) {
			continued = { id: argv[++i] };
		} else {
			continued = { id: undefined };
		}
	}
	return continued ? { rest, continued } : { rest };
}

/**
 * `--attach-diff` takes an optional value, which `parseArgs` cannot express: given as a string
 * option, the bare flag would swallow the QUESTION after it. Taken out by hand before `--`.
 */
export function takeAttachDiff(argv: readonly string[]): { rest: string[]; diffs: DiffSource[] } {
	const rest: string[] = [];
	const diffs: DiffSource[] = [];
	let options = true;
	for (const arg of argv) {
		if (arg === '--') options = false;
		if (!options || !arg.startsWith('--attach-diff')) {
			rest.push(arg);
			continue;
		}
		const value =
			arg === '--attach-diff' ? 'working-tree' : arg.startsWith('--attach-diff=') ? arg.slice(14) : null;
		if (value !== 'working-tree' && value !== 'staged') {
			throw new UsageError(`unknown option '${arg}' (use --attach-diff or --attach-diff=staged)`);
		}
		if (!diffs.includes(value)) diffs.push(value);
	}
	return { rest, diffs };
}
