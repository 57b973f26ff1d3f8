/**
 * One agent's answer read as a plan (the format `planQuestion` asks for), leniently: a step starts
 * at a numbered line (`1. **Title**`, `### 2. Title`, `Step 3: Title`) or a checkbox item
 * (`- [ ] **Title**`, the plan document's own form); `Files:`, `Risk:` and `Verify:` lines under it
 * are read as such, anything else is its details. Line by line with anchored patterns: an answer
 * is a model's text, so nothing here may take more than linear time on it.
 */

export type StepRisk = 'low' | 'medium' | 'high';

export interface PlanStepDraft {
	readonly title: string;
	/** Workspace-relative paths as the plan names them. */
	readonly files: readonly string[];
	readonly risk: StepRisk | null;
	/** The words after the risk level ("low — only the parser changes" → "only the parser changes"). */
	readonly riskNote: string;
	readonly verify: string;
	readonly details: string;
}

export interface ParsedPlan {
	readonly title: string;
	readonly steps: readonly PlanStepDraft[];
}

/** What one answer may hold: more is cut (a model's text is unbounded). */
export const planLimits = {
	steps: 100,
	titleChars: 200,
	detailChars: 4_000,
	files: 50,
	lineChars: 2_000,
} as const;

const stepStart = /^[ \t]?(?:#{1,4}[ \t]*)?(?:\*\*)?(?:step[ \t]+)?(\d{1,3})[.):][ \t]+(.*)$/i;
const checkboxStart = /^[-*][ \t]\[[ xX]\][ \t]+(.*)$/;
const field =
	/^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?(files?|risk|verify|verification)(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*(.*)$/i;
const titleLine = /^[ \t]{0,3}#{1,3}[ \t]+(?:plan[ \t]*:[ \t]*)?(.*)$/i;

export function parsePlanAnswer(text: string): ParsedPlan {
	const lines = text.replace(/\r\n?/g, '\n').split('\n');
	let title = '';
	const steps: PlanStepDraft[] = [];
	let current: {
		title: string;
		files: string[];
		risk: StepRisk | null;
		riskNote: string;
		verify: string;
		details: string[];
	} | null = null;
	const close = () => {
		if (current && steps.length < planLimits.steps) {
			steps.push({
				title: current.title,
				files: current.files.slice(0, planLimits.files),
				risk: current.risk,
				riskNote: current.riskNote,
				verify: current.verify,
				details: dedent(current.details).slice(0, planLimits.detailChars),
			});
		}
		current = null;
	};
	for (const raw of lines) {
		const line = raw.length > planLimits.lineChars ? raw.slice(0, planLimits.lineChars) : raw;
		const start = stepStart.exec(line) ?? checkboxStart.exec(line);
		if (start) {
			const heading = start.length === 3 ? start[2]! : start[1]!;
			close();
			current = { title: cleanTitle(heading), files: [], risk: null, riskNote: '', verify: '', details: [] };
			continue;
		}
		if (!current) {
			const heading = titleLine.exec(line);
			if (heading && !title) title = cleanTitle(heading[1]!);
			continue;
		}
		const named = field.exec(line);
		if (named) {
			const [, key, value] = named as unknown as [string, string, string];
			const name = key.toLowerCase();
			if (name.startsWith('file')) current.files.push(...filesOf(value));
			else if (name === 'risk') Object.assign(current, riskOf(value));
			else current.verify = value.trim();
			continue;
		}
		// A heading at the left margin after the steps (a closing note's) ends the last step.
		if (/^#{1,6}[ \t]/.test(line)) {
			close();
			continue;
		}
		current.details.push(line);
	}
	close();
	return { title: title || 'Plan', steps: steps.filter((step) => step.title !== '') };
}

/**
 * Bold off, leading dashes and colons and trailing colons off; at most `titleChars`. Trimmed by
 * index, not by a `[…]+$` pattern: that backtracks over every run of spaces (quadratic on a
 * document's title line, which may be 1 MiB).
 */
export function cleanTitle(text: string): string {
	const bare = text.replace(/\*\*/g, '');
	let start = 0;
	while (start < bare.length && ' \t:—-'.includes(bare[start]!)) start++;
	let end = bare.length;
	while (end > start && ' \t:'.includes(bare[end - 1]!)) end--;
	return bare.slice(start, Math.min(end, start + planLimits.titleChars)).trim();
}

/** `` `a.ts`, `b.ts` `` or `a.ts, b.ts`: the backticked names when there are any, else the comma list. */
function filesOf(value: string): string[] {
	const ticked = [...value.matchAll(/`([^`\n]{1,300})`/g)].map((match) => match[1]!.trim());
	const names = ticked.length
		? ticked
		: value
				.split(/[,;]/)
				.map((name) => name.trim())
				.filter((name) => name !== '' && !/^(none|n\/a|-)$/i.test(name));
	return names.filter((name) => name.length <= 300 && !/[\s]/.test(name));
}

function riskOf(value: string): { risk: StepRisk | null; riskNote: string } {
	const level = /^[ \t*_]*(low|medium|high)\b[ \t*_]*(.*)$/i.exec(value);
	if (!level) return { risk: null, riskNote: value.trim() };
	return {
		risk: level[1]!.toLowerCase() as StepRisk,
		riskNote: level[2]!.replace(/^[—–:,;-]+/, '').trim(),
	};
}

/** The lines without their common indentation, blank lines at either end dropped. */
export function dedent(lines: readonly string[]): string {
	const first = lines.findIndex((line) => line.trim() !== '');
	if (first < 0) return '';
	let last = lines.length - 1;
	while (lines[last]!.trim() === '') last--;
	const kept = lines.slice(first, last + 1);
	// A loop, not Math.min(...lines): a spread of 250,000 lines overflows the stack.
	let indent = Infinity;
	for (const line of kept) {
		if (line.trim() !== '') indent = Math.min(indent, /^[ \t]*/.exec(line)![0].length);
	}
	return kept.map((line) => line.slice(indent)).join('\n');
}
