/**
 * What execution writes into the plan document: a step's checkbox ticked, the run that carried it
 * out (`- Run: <id>`), why it stopped (`> Stopped: <reason>`). Only the step's own marks change;
 * every other byte (the user's edits, notes, line endings) stays as it was, so the same edit can be
 * applied to the file or to an open editor's unsaved text.
 */
import { isSafeRunId } from '../../contract/runId.js';
import { parsePlanDocument, runLine, stepLine, stoppedLine } from './planDocument.js';
import { PlanError } from './planError.js';

export type StepMark =
	/** Proposed by the run, not accepted (the CLI without `--apply`). */
	| { readonly runId: string }
	/** Accepted (or applied): ticked. */
	| { readonly done: true; readonly runId: string }
	/** Execution stopped at the step: rejected, failed, cancelled; the box stays empty. */
	| { readonly stopped: string; readonly runId: string };

export function markStep(text: string, index: number, mark: StepMark): string {
	if (!isSafeRunId(mark.runId)) throw new PlanError(`'${mark.runId}' is not a run id`);
	const doc = parsePlanDocument(text, 'the plan');
	const step = doc.steps[index - 1];
	if (!step) throw new PlanError(`the plan has no step ${index} (it has ${doc.steps.length})`);
	// Lines with their own endings, so the text joins back byte for byte.
	const lines = text.split(/(?<=\n)/);
	const at = step.line;
	const eol = /\r?\n$/.exec(lines[at]!)?.[0] ?? '\n';
	let end = at + 1;
	while (end < lines.length) {
		const bare = lines[end]!.replace(/\r?\n$/, '');
		if (stepLine.test(bare) || !(bare.trim() === '' || /^[ \t]/.test(bare))) break;
		end++;
	}
	const body = lines.slice(at + 1, end).filter((line) => {
		const bare = line.replace(/\r?\n$/, '');
		return !runLine.test(bare) && !stoppedLine.test(bare);
	});
	const checkbox = lines[at]!.replace(/^([-*] )\[[ xX]\]/, (_, bullet: string) =>
		'done' in mark
			? `${bullet}[x]`
			: 'stopped' in mark
				? `${bullet}[ ]`
				: `${bullet}[${step.done ? 'x' : ' '}]`,
	);
	const marks = [`  - Run: ${mark.runId}${eol}`];
	if ('stopped' in mark) marks.push(`  > Stopped: ${oneLine(mark.stopped)}${eol}`);
	// The checkbox line was the file's last, without an ending: the marks need one before them.
	const head = /\n$/.test(checkbox) ? checkbox : `${checkbox}${eol}`;
	return [...lines.slice(0, at), head, ...marks, ...body, ...lines.slice(end)].join('');
}

function oneLine(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
