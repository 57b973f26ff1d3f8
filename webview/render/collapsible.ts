/**
 * Native `<details>` sections whose open state is remembered in the view state.
 */
import type { ViewStateStore } from '../viewState.js';
import { h, icon, type Child } from './dom.js';

export interface Collapsible {
	readonly details: HTMLDetailsElement;
	readonly summary: HTMLElement;
	readonly body: HTMLDivElement;
}

export interface CollapsibleOptions {
	/** View-state key (`section:votes`, `tool:<agent>:<callId>`…). */
	readonly key: string;
	readonly defaultOpen: boolean;
	readonly viewState: ViewStateStore;
	readonly summary: Child[];
	readonly class?: string;
	/** Called after the user opens or closes it (also once when it starts open). */
	readonly onToggle?: (open: boolean) => void;
}

export function collapsible(options: CollapsibleOptions): Collapsible {
	const summary = h('summary', {}, icon('chevron-right', 'twisty'), ...options.summary);
	const body = h('div', { class: 'collapsible-body' });
	const details = h('details', { class: options.class ?? '' }, summary, body);
	details.open = options.viewState.isOpen(options.key, options.defaultOpen);
	details.addEventListener('toggle', () => {
		options.viewState.setOpen(options.key, details.open);
		options.onToggle?.(details.open);
	});
	return { details, summary, body };
}

/** A top-level panel section: a region named by its heading, collapsible. */
export function panelSection(
	id: string,
	title: string,
	viewState: ViewStateStore,
	defaultOpen = true,
): Collapsible & { readonly section: HTMLElement; readonly count: HTMLSpanElement } {
	const headingId = `${id}-heading`;
	const count = h('span', { class: 'section-count' });
	const heading = h('h2', { attrs: { id: headingId } }, title, count);
	const parts = collapsible({
		key: `section:${id}`,
		defaultOpen,
		viewState,
		summary: [heading],
		class: 'panel-section-details',
	});
	const section = h('section', {
		class: `panel-section section-${id}`,
		attrs: { 'aria-labelledby': headingId },
	});
	section.id = id;
	section.append(parts.details);
	return { ...parts, section, count };
}
