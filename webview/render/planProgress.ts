/**
 * Execute Plan's progress above the run it belongs to: "Plan: step 2 of 5 — <title>" and each
 * step with its state in words (an icon beside it is decoration only). Shown while the panel shows
 * one of the execution's runs.
 */
import type { PlanProgressView, PlanStepState } from '../../src/protocol/planProgress.js';
import { t } from '../strings.js';
import { h, icon, setHidden } from './dom.js';

const stateLook: Record<PlanStepState, { icon: string; words: () => string }> = {
	todo: { icon: 'circle-large-outline', words: () => t('planStepTodo') },
	running: { icon: 'sync', words: () => t('planStepRunning') },
	review: { icon: 'eye', words: () => t('planStepReview') },
	done: { icon: 'pass-filled', words: () => t('planStepDone') },
	stopped: { icon: 'error', words: () => t('planStepStopped') },
};

export class PlanProgressPart {
	readonly element: HTMLElement;
	private _shown: PlanProgressView | undefined;

	constructor() {
		this.element = h('section', {
			class: 'plan-progress',
			attrs: { 'aria-labelledby': 'plan-progress-heading' },
		});
		this.element.hidden = true;
	}

	/** The plan whose runs hold `runId`, or nothing. */
	update(plans: readonly PlanProgressView[], runId: string | null): void {
		const view = runId === null ? undefined : plans.find((plan) => plan.runIds.includes(runId));
		setHidden(this.element, view === undefined);
		if (view === this._shown) return;
		this._shown = view;
		if (!view) {
			this.element.replaceChildren();
			return;
		}
		const done = view.steps.filter((step) => step.state === 'done').length;
		const current = view.steps.find((step) => step.index === view.current);
		const heading =
			current && view.allAtOnce
				? t('planAllSteps', view.steps.length, view.title)
				: current
					? t('planStepOf', current.index, view.steps.length, current.title)
					: t('planEnded', view.title, done, view.steps.length);
		const list = h('ol', { class: 'plan-steps', attrs: { 'aria-label': t('planSteps') } });
		for (const step of view.steps) {
			const look = stateLook[step.state];
			const item = h(
				'li',
				{ class: `plan-step plan-step-${step.state}` },
				icon(look.icon),
				h('span', { class: 'plan-step-title', text: step.title }),
				h('span', { class: 'plan-step-state', text: look.words() }),
				step.note ? h('span', { class: 'plan-step-note', text: step.note }) : null,
			);
			if (step.index === view.current) item.setAttribute('aria-current', 'step');
			list.append(item);
		}
		this.element.replaceChildren(h('h2', { text: heading, attrs: { id: 'plan-progress-heading' } }), list);
	}
}
