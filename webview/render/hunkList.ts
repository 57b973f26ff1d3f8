/**
 * A file's hunks in file order, each runner-up alternative right after the winner's hunk(s) it
 * would replace, and the runner-ups' extra changes at the end. Items are keyed by hunk id and
 * reused, so a new change set updates checkboxes in place.
 */
import { t } from '../strings.js';
import type { ChangeFileView } from '../../src/protocol/changeSetView.js';
import type { FileSelection } from './changeSelection.js';
import { h, setHidden, setText } from './dom.js';
import { AlternativeHunk, type HunkContext, WinnerHunk } from './hunkView.js';

type Item = WinnerHunk | AlternativeHunk;

export class HunkList {
	readonly element: HTMLDivElement;
	private readonly _extrasHead: HTMLDivElement;
	private readonly _items = new Map<string, Item>();

	constructor(private readonly _ctx: HunkContext) {
		this._extrasHead = h('div', { class: 'hunk-group-head' });
		this.element = h('div', { class: 'hunk-list' });
	}

	update(file: ChangeFileView, selection: FileSelection): void {
		const position = new Map(file.hunks.map((hunk, i) => [hunk.id, i + 1]));
		const anchored = new Map<string, ChangeFileView['alternatives'][number][]>();
		const extras: ChangeFileView['alternatives'][number][] = [];
		for (const alt of file.alternatives) {
			const at = alt.replaces.map((id) => position.get(id)).filter((n): n is number => n !== undefined);
			if (at.length === 0) {
				extras.push(alt);
				continue;
			}
			const anchor = file.hunks[Math.max(...at) - 1]!.id;
			anchored.set(anchor, [...(anchored.get(anchor) ?? []), alt]);
		}
		const labelsOf = (ids: readonly string[]) =>
			file.alternatives
				.filter((alt) => ids.includes(alt.id))
				.map((alt) => t('possessiveVersion', alt.agents[0] ?? alt.sources[0] ?? ''));

		const order: Node[] = [];
		const seen = new Set<string>();
		const altItem = (alt: ChangeFileView['alternatives'][number]) => {
			const item = this._item(
				`alt:${alt.id}`,
				() => new AlternativeHunk(this._ctx, alt.id),
			) as AlternativeHunk;
			item.update({
				hunk: alt,
				selected: selection.ids.has(alt.id),
				replacesIndex: alt.replaces.map((id) => position.get(id)).filter((n): n is number => n !== undefined),
			});
			seen.add(`alt:${alt.id}`);
			order.push(item.element);
		};
		file.hunks.forEach((hunk, i) => {
			const item = this._item(`hunk:${hunk.id}`, () => new WinnerHunk(this._ctx, hunk.id)) as WinnerHunk;
			const replacing = file.alternatives
				.filter((alt) => selection.ids.has(alt.id) && alt.replaces.includes(hunk.id))
				.map((alt) => alt.id);
			item.update({
				hunk,
				index: i + 1,
				total: file.hunks.length,
				selected: selection.ids.has(hunk.id),
				replacedBy: labelsOf(replacing),
			});
			seen.add(`hunk:${hunk.id}`);
			order.push(item.element);
			for (const alt of anchored.get(hunk.id) ?? []) altItem(alt);
		});
		setHidden(this._extrasHead, extras.length === 0);
		if (extras.length > 0) {
			setText(this._extrasHead, t('extraChangesFromRunner', extras.length));
			order.push(this._extrasHead);
			for (const alt of extras) altItem(alt);
		}
		for (const [key, item] of this._items) {
			if (seen.has(key)) continue;
			item.element.remove();
			this._items.delete(key);
		}
		placeChildren(this.element, order);
	}

	private _item(key: string, create: () => Item): Item {
		let item = this._items.get(key);
		if (!item) {
			item = create();
			this._items.set(key, item);
		}
		return item;
	}
}

/**
 * Makes `parent`'s children exactly `order`, moving only nodes that are out of place (a moved
 * node loses focus; the changes view puts it back).
 */
export function placeChildren(parent: Element, order: readonly Node[]): void {
	let cursor: ChildNode | null = parent.firstChild;
	for (const node of order) {
		if (cursor === node) {
			cursor = cursor.nextSibling;
			continue;
		}
		parent.insertBefore(node, cursor);
	}
	while (cursor) {
		const next: ChildNode | null = cursor.nextSibling;
		cursor.remove();
		cursor = next;
	}
}
