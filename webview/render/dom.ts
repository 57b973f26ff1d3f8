/**
 * Tiny DOM helpers. Every string goes in as text (`textContent`/`Text` nodes); the only HTML the
 * panel ever parses is sanitised Markdown (see `markdown.ts`).
 */

export type Child = Node | string | null | undefined | false;

export interface Props {
	readonly class?: string;
	readonly text?: string;
	readonly title?: string;
	readonly attrs?: Readonly<Record<string, string>>;
}

export function h<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	props: Props = {},
	...children: Child[]
): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag);
	if (props.class) element.className = props.class;
	if (props.title) element.title = props.title;
	if (props.attrs) for (const [name, value] of Object.entries(props.attrs)) element.setAttribute(name, value);
	if (props.text !== undefined) element.textContent = props.text;
	append(element, ...children);
	return element;
}

export function append(parent: Node, ...children: Child[]): void {
	for (const child of children) {
		if (child === null || child === undefined || child === false) continue;
		parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
	}
}

/** A codicon glyph, hidden from assistive technology (the surrounding text carries the meaning). */
export function icon(name: string, extraClass = ''): HTMLSpanElement {
	const span = h('span', { class: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}` });
	span.setAttribute('aria-hidden', 'true');
	return span;
}

/** Sets text only when it changed (avoids needless layout). */
export function setText(element: Element, text: string): void {
	if (element.textContent !== text) element.textContent = text;
}

export function setHidden(element: HTMLElement, hidden: boolean): void {
	if (element.hidden !== hidden) element.hidden = hidden;
}

export function setData(element: HTMLElement, name: string, value: string): void {
	if (element.dataset[name] !== value) element.dataset[name] = value;
}

let nextId = 0;
/** Document-unique ids for aria-labelledby. */
export function uniqueId(prefix: string): string {
	nextId += 1;
	return `${prefix}-${nextId}`;
}

/** A `vscode-button` with a visible label (and an optional codicon). */
export function button(
	label: string,
	onClick: () => void,
	options: { icon?: string; secondary?: boolean; ariaLabel?: string; class?: string } = {},
): HTMLElement {
	const element = document.createElement('vscode-button');
	if (options.icon) element.setAttribute('icon', options.icon);
	if (options.secondary) element.setAttribute('secondary', '');
	if (options.ariaLabel) element.setAttribute('aria-label', options.ariaLabel);
	if (options.class) element.className = options.class;
	element.textContent = label;
	element.addEventListener('click', () => {
		if (!element.hasAttribute('disabled')) onClick();
	});
	return element;
}

export function setDisabled(element: HTMLElement, disabled: boolean): void {
	if (element.hasAttribute('disabled') !== disabled) element.toggleAttribute('disabled', disabled);
}

export function setClass(element: Element, name: string, on: boolean): void {
	if (element.classList.contains(name) !== on) element.classList.toggle(name, on);
}

export function setTitle(element: HTMLElement, title: string): void {
	if (element.title !== title) element.title = title;
}
