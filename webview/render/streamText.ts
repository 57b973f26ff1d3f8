/**
 * A scrolling box of streamed text that only appends what is new, follows the end unless the user
 * scrolled up, and says how much older text was dropped.
 *
 * The text is kept in blocks of about `chunkChars` characters, split after a newline where
 * possible. Appending changes only the last block, so the browser lays out a few hundred
 * characters per frame instead of the whole 20,000-character stream (measured with
 * `npm run bench:panel`).
 */
import { t } from '../strings.js';
import { h, setHidden, setText } from './dom.js';

const chunkChars = 1_024;
/** A single line longer than this is broken across blocks. */
const maxChunkChars = 4 * chunkChars;

export class StreamText {
	readonly element: HTMLDivElement;
	private readonly _note: HTMLDivElement;
	/** Text nodes of the blocks, oldest first; only the last one grows. */
	private _chunks: Text[] = [];
	private _rendered = '';
	private _dropped = 0;
	/** Follow the end; false once the user scrolls up, true again at the bottom. */
	private _stick = true;
	private _programmaticScroll = false;

	constructor(
		label: string,
		className: string,
		private readonly _onScroll?: (position: number) => void,
	) {
		this._note = h('div', { class: 'stream-dropped' });
		this._note.hidden = true;
		this.element = h('div', { class: `stream ${className}`, attrs: { tabindex: '0', 'aria-label': label } });
		this.element.append(this._note);
		this.element.addEventListener('scroll', () => this._handleScroll(), { passive: true });
	}

	get following(): boolean {
		return this._stick;
	}

	/** The text shown (for tests and debugging). */
	get text(): string {
		return this._rendered;
	}

	/** Brings the box up to `text`; returns true when something changed (the caller scrolls later). */
	update(text: string, dropped: number): boolean {
		if (text === this._rendered && dropped === this._dropped) return false;
		const cut = dropped - this._dropped;
		const kept = cut >= 0 && cut <= this._rendered.length ? this._rendered.slice(cut) : null;
		if (kept !== null && text.length >= kept.length && text.startsWith(kept)) {
			if (cut > 0) this._dropFront(cut);
			this._append(text.slice(kept.length));
		} else {
			this._reset(text);
		}
		if (dropped !== this._dropped) {
			setHidden(this._note, dropped === 0);
			setText(this._note, t('earlierCharactersNotShown', dropped.toLocaleString('en-US')));
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

	private _reset(text: string): void {
		for (const chunk of this._chunks) chunk.parentElement?.remove();
		this._chunks = [];
		this._append(text);
	}

	private _append(text: string): void {
		let rest = text;
		while (rest.length > 0) {
			let last = this._chunks.at(-1) ?? this._newChunk();
			// Start a new block only at a line end (blocks join seamlessly there), or when one line is huge.
			if ((last.length >= chunkChars && last.data.endsWith('\n')) || last.length >= maxChunkChars) {
				last = this._newChunk();
			}
			const room = chunkChars - last.length;
			let take: number;
			if (rest.length <= room) {
				take = rest.length;
			} else {
				const within = room > 0 ? rest.lastIndexOf('\n', room - 1) : -1;
				const limit = Math.max(1, maxChunkChars - last.length);
				const lineEnd = rest.indexOf('\n');
				take =
					within >= 0
						? within + 1
						: lineEnd >= 0 && lineEnd < limit
							? lineEnd + 1
							: Math.min(rest.length, limit);
			}
			last.appendData(rest.slice(0, take));
			rest = rest.slice(take);
		}
	}

	private _dropFront(count: number): void {
		let left = count;
		while (left > 0 && this._chunks.length > 0) {
			const first = this._chunks[0]!;
			if (first.length <= left) {
				left -= first.length;
				first.parentElement?.remove();
				this._chunks.shift();
			} else {
				first.deleteData(0, left);
				left = 0;
			}
		}
	}

	private _newChunk(): Text {
		const text = document.createTextNode('');
		const block = document.createElement('div');
		block.className = 'stream-chunk';
		block.append(text);
		this.element.append(block);
		this._chunks.push(text);
		return text;
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
