/**
 * A scrolling box of streamed text that only appends what is new (one `Text` node grows), follows
 * the end unless the user scrolled up, and says how much older text was dropped.
 */
import { h, setHidden, setText } from './dom.js';

export class StreamText {
	readonly element: HTMLDivElement;
	private readonly _note: HTMLDivElement;
	private readonly _text: Text;
	private _rendered = '';
	private _dropped = 0;
	/** Follow the end; false once the user scrolls up, true again at the bottom. */
	private _stick = true;
	private _programmaticScroll = false;

	constructor(label: string, className: string, private readonly _onScroll?: (position: number) => void) {
		this._note = h('div', { class: 'stream-dropped' });
		this._note.hidden = true;
		this._text = document.createTextNode('');
		this.element = h('div', { class: `stream ${className}`, attrs: { tabindex: '0', 'aria-label': label } });
		this.element.append(this._note, this._text);
		this.element.addEventListener('scroll', () => this._handleScroll(), { passive: true });
	}

	get following(): boolean {
		return this._stick;
	}

	/** Brings the box up to `text`; returns true when something changed (the caller scrolls later). */
	update(text: string, dropped: number): boolean {
		if (text === this._rendered && dropped === this._dropped) return false;
		if (dropped === this._dropped && text.length > this._rendered.length && text.startsWith(this._rendered)) {
			this._text.appendData(text.slice(this._rendered.length));
		} else {
			this._text.data = text;
		}
		if (dropped !== this._dropped) {
			setHidden(this._note, dropped === 0);
			setText(this._note, `… ${dropped.toLocaleString('en-US')} earlier characters not shown`);
		}
		this._rendered = text;
		this._dropped = dropped;
		return true;
	}

	/** Call after all DOM writes of a frame, so the layout read happens once. */
	scrollToEndIfFollowing(): void {
		if (!this._stick) return;
		const target = this.element.scrollHeight - this.element.clientHeight;
		if (target > 0 && Math.abs(this.element.scrollTop - target) > 1) {
			this._programmaticScroll = true;
			this.element.scrollTop = target;
		}
	}

	/** Restores a saved position (-1 = follow the end). */
	restore(position: number): void {
		if (position < 0) {
			this._stick = true;
			this.scrollToEndIfFollowing();
			return;
		}
		this._stick = false;
		if (Math.abs(this.element.scrollTop - position) > 1) {
			this._programmaticScroll = true;
			this.element.scrollTop = position;
		}
	}

	private _handleScroll(): void {
		if (this._programmaticScroll) {
			this._programmaticScroll = false;
			return;
		}
		const element = this.element;
		this._stick = element.scrollTop + element.clientHeight >= element.scrollHeight - 8;
		this._onScroll?.(this._stick ? -1 : element.scrollTop);
	}
}
