/**
 * The plan document (docs/plans.md): Markdown with a front matter of our own keys, one top-level
 * checkbox item per step. `renderPlanDocument` writes it from the team's plan; after that it is the
 * user's (steps edited, reordered, deleted, notes added), so `parsePlanDocument` reads whatever the
 * user left and says where it cannot (`file:line:col`). The front matter is read by a line parser
 * for our keys only, never by a YAML library: the file is workspace content.
 */
import { isSafeRunId } from '../../contract/runId.js';
import { planDepths, type PlanDepth } from '../../contract/plan.js';
import { agreementWords, type AgreedPlan } from './planAgreement.js';
import { cleanTitle, dedent } from './parsePlan.js';
import { PlanError } from './planError.js';

export interface PlanMeta {
	/** The plan run's id. */
	readonly id: string;
	readonly task: string;
	readonly depth: PlanDepth;
	/** The run that made the plan (the same id; kept apart so a copied plan still names it). */
	readonly run: string;
	/** ISO 8601. */
	readonly created: string;
	/** Agents whose plans were counted. */
	readonly agents: number;
}

export interface PlanStep {
	/** 1-based, in the document's order. */
	readonly index: number;
	/** Without the agreement mark. */
	readonly title: string;
	/** "3 of 3", "only the winner"; null when the user removed it. */
	readonly agreement: string | null;
	/** Everything under the step (Files, Risk, Verify, details, the user's notes), dedented, without `Run:`/`Stopped:`. */
	readonly body: string;
	readonly done: boolean;
	/** The last run that carried the step out (`- Run: <id>`). */
	readonly runId: string | null;
	/** Why its last run stopped the execution (`> Stopped: <reason>`). */
	readonly stopped: string | null;
	/** 0-based line of its checkbox. */
	readonly line: number;
}

export interface PlanDocument {
	readonly meta: PlanMeta;
	readonly title: string;
	readonly steps: readonly PlanStep[];
	/** The text after the front matter (what the team is given). */
	readonly body: string;
}

/** What a plan document may hold. */
export const planDocumentLimits = { bytes: 1024 * 1024, steps: 200 } as const;

export const stepLine = /^[-*] \[([ xX])\][ \t]+(.*)$/;
export const runLine = /^[ \t]+- Run: (\S+)[ \t]*$/;
export const stoppedLine = /^[ \t]+> Stopped: (.*)$/;
const agreementMark = / · (\d{1,3} of \d{1,3}|only the winner)[ \t]*$/;

/**
 * How much of each step a document keeps when the whole plan would pass the 1 MiB a plan may hold
 * (a model's answer is unbounded): the first that fits is used, so the plan is always readable.
 */
const renderCuts: readonly (StepCut | null)[] = [
	null,
	{ chars: 1_000, files: 20 },
	{ chars: 200, files: 5 },
	{ chars: 60, files: 0 },
];

interface StepCut {
	/** Details, risk and check, each. */
	readonly chars: number;
	readonly files: number;
}

export function renderPlanDocument(meta: PlanMeta, plan: AgreedPlan): string {
	for (const cut of renderCuts) {
		const text = renderWith(meta, plan, cut);
		if (Buffer.byteLength(text, 'utf8') <= planDocumentLimits.bytes) return text;
	}
	throw new PlanError(
		`the plan is over ${planDocumentLimits.bytes / 1024 / 1024} MiB even with each step cut short (is the task that long?); nothing was saved`,
	);
}

function renderWith(meta: PlanMeta, plan: AgreedPlan, cut: StepCut | null): string {
	const short = (text: string) =>
		cut && text.length > cut.chars ? `${text.slice(0, cut.chars)}… ${cutNote}` : text;
	const out = [
		'---',
		'massgen: plan',
		`id: ${meta.id}`,
		`task: ${JSON.stringify(meta.task)}`,
		`depth: ${meta.depth}`,
		`run: ${meta.run}`,
		`created: ${meta.created}`,
		`agents: ${meta.agents}`,
		'---',
		'',
		`# ${oneLine(plan.title)}`,
		'',
	];
	for (const step of plan.steps) {
		out.push(`- [ ] **${stepTitle(step.title)}** · ${agreementWords(step.agents.length, plan.of)}`);
		const files = cut ? step.files.slice(0, cut.files) : step.files;
		if (files.length) {
			const more = step.files.length - files.length;
			out.push(
				`  - Files: ${files.map((file) => `\`${file.replace(/`/g, '')}\``).join(', ')}${more ? ` and ${more} more ${cutNote}` : ''}`,
			);
		}
		if (step.risk || step.riskNote) {
			out.push(`  - Risk: ${[step.risk, short(oneLine(step.riskNote))].filter(Boolean).join(' — ')}`);
		}
		if (step.verify) out.push(`  - Verify: ${short(oneLine(step.verify))}`);
		const details = cut && step.details.length > cut.chars ? short(step.details) : step.details;
		if (details) {
			out.push('');
			// Indented under the item: no line of the model's text can start a step or end the item, and
			// one that looks like execution's marks is escaped (Markdown shows `\-` as `-`): a model
			// cannot name the run a step was done in.
			for (const line of details.split('\n')) {
				const indented = `  ${line}`;
				out.push(
					!line.trim()
						? ''
						: runLine.test(indented) || stoppedLine.test(indented)
							? `  \\${line.trimStart()}`
							: indented,
				);
			}
		}
		out.push('');
	}
	return out.join('\n');
}

const cutNote = '(cut: the plan was over 1 MiB)';

/**
 * One line, no bold marks, and no agreement mark of the model's own at its end (`Drop the tests ·
 * 3 of 3`): the document's mark is the one counted from the agents' plans.
 */
function stepTitle(title: string): string {
	let text = oneLine(title).replace(/\*/g, '');
	for (let last = ''; last !== text;) {
		last = text;
		text = text.replace(fakeAgreement, '').trimEnd();
	}
	return text || 'Step';
}

/** Titles are at most `planLimits.titleChars`: this pattern runs on short text only. */
const fakeAgreement =
	/[ \t]*[(\[]?[ \t]*[·•∙⋅・|—–-]?[ \t]*(?:\d{1,3} of \d{1,3}|only the winner)[ \t]*[)\]]?$/i;

export function parsePlanDocument(text: string, source: string): PlanDocument {
	if (Buffer.byteLength(text, 'utf8') > planDocumentLimits.bytes) {
		throw new PlanError(
			`${source}: over ${planDocumentLimits.bytes / 1024 / 1024} MiB; a plan is at most that`,
		);
	}
	const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
	const { meta, bodyStart } = readFrontMatter(lines, source);
	let title = '';
	const steps: PlanStep[] = [];
	let open: { line: number; checkbox: string; heading: string; body: string[] } | null = null;
	const close = () => {
		if (!open) return;
		if (steps.length >= planDocumentLimits.steps) {
			throw new PlanError(`${source}:${open.line + 1}:1: more than ${planDocumentLimits.steps} steps`);
		}
		steps.push(toStep(open, steps.length + 1));
		open = null;
	};
	for (let i = bodyStart; i < lines.length; i++) {
		const line = lines[i]!;
		const step = stepLine.exec(line);
		if (step) {
			close();
			open = { line: i, checkbox: step[1]!, heading: step[2]!, body: [] };
			continue;
		}
		if (open && (line.trim() === '' || /^[ \t]/.test(line))) {
			open.body.push(line);
			continue;
		}
		close();
		const heading = /^# (.*)$/.exec(line);
		if (heading && !title) title = heading[1]!.trim();
	}
	close();
	if (steps.length === 0) {
		throw new PlanError(
			`${source}:${bodyStart + 1}:1: no steps (a step is a line \`- [ ] **what it does**\`)`,
		);
	}
	return { meta, title: title || meta.task, steps, body: lines.slice(bodyStart).join('\n').trim() };
}

function toStep(
	open: { line: number; checkbox: string; heading: string; body: string[] },
	index: number,
): PlanStep {
	const marked = agreementMark.exec(open.heading);
	const heading = marked ? open.heading.slice(0, marked.index) : open.heading;
	let runId: string | null = null;
	let stopped: string | null = null;
	const body: string[] = [];
	for (const line of open.body) {
		const run = runLine.exec(line);
		const stop = stoppedLine.exec(line);
		if (run) runId = run[1]!;
		else if (stop) stopped = stop[1]!.trim();
		else body.push(line);
	}
	return {
		index,
		title: cleanTitle(heading) || `Step ${index}`,
		agreement: marked ? marked[1]! : null,
		body: dedent(body),
		done: open.checkbox !== ' ',
		runId: runId && isSafeRunId(runId) ? runId : null,
		stopped,
		line: open.line,
	};
}

const metaKeys = ['massgen', 'id', 'task', 'depth', 'run', 'created', 'agents'] as const;

function readFrontMatter(lines: readonly string[], source: string): { meta: PlanMeta; bodyStart: number } {
	const at = (line: number, col: number, why: string) =>
		new PlanError(`${source}:${line + 1}:${col}: ${why}`);
	if (lines[0]?.trim() !== '---') {
		throw at(0, 1, 'not a MassGen plan: it must start with a `---` front matter');
	}
	const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
	if (end < 0) throw at(0, 1, 'the front matter has no closing `---`');
	const values = new Map<string, { value: string; line: number; col: number }>();
	for (let i = 1; i < end; i++) {
		const match = /^([a-z]+)[ \t]*:[ \t]?(.*)$/.exec(lines[i]!);
		if (!match || !(metaKeys as readonly string[]).includes(match[1]!)) continue;
		values.set(match[1]!, { value: match[2]!.trim(), line: i, col: match[0].length - match[2]!.length + 1 });
	}
	const get = (key: (typeof metaKeys)[number]) => {
		const found = values.get(key);
		if (!found) throw at(end, 1, `the front matter has no \`${key}\``);
		return found;
	};
	if (get('massgen').value !== 'plan') {
		throw at(get('massgen').line, get('massgen').col, '`massgen` must be `plan`');
	}
	const runId = (key: 'id' | 'run') => {
		const { value, line, col } = get(key);
		if (!isSafeRunId(value)) {
			throw at(line, col, `\`${key}\` is not a run id: ${JSON.stringify(value.slice(0, 60))}`);
		}
		return value;
	};
	const task = get('task');
	let taskText = task.value;
	if (taskText.startsWith('"')) {
		try {
			taskText = JSON.parse(taskText) as string;
		} catch {
			throw at(task.line, task.col, '`task` is not a valid quoted string');
		}
	}
	const depth = get('depth');
	if (!(planDepths as readonly string[]).includes(depth.value)) {
		throw at(depth.line, depth.col, `\`depth\` must be one of ${planDepths.join(', ')}`);
	}
	const agents = Number(values.get('agents')?.value ?? '1');
	return {
		meta: {
			id: runId('id'),
			task: taskText,
			depth: depth.value as PlanDepth,
			run: runId('run'),
			created: values.get('created')?.value ?? '',
			agents: Number.isInteger(agents) && agents > 0 ? agents : 1,
		},
		bodyStart: end + 1,
	};
}

function oneLine(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}
