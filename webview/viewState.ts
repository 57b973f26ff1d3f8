/**
 * View state that survives a webview reload (VS Code keeps it via `setState`): which sections the
 * user opened or closed, scroll positions, the draft question and its attachment chips. Run data
 * is not stored: the host resends the snapshot after `ready`.
 */
import type { AttachmentChip } from '../src/protocol/attachmentChip.js';

export interface PersistedViewState {
	readonly version: 1;
	/** Run the per-run keys below belong to. */
	readonly runId: string | null;
	/** User choices only; a missing key means the element's default. */
	readonly open: Readonly<Record<string, boolean>>;
	/** `page`, or `stream:<agentId>` (-1 = follow the end). */
	readonly scroll: Readonly<Record<string, number>>;
	readonly draft: string;
	/** The ask box's chips (the host validates them again when they are sent). */
	readonly chips: readonly AttachmentChip[];
}

export interface StateApi {
	getState(): unknown;
	setState(state: unknown): void;
}

/** Keys that belong to a run's content (lanes, tool calls, answers); reset when the run changes. */
const runScoped = /^(lane|reasoning|tools|tool|answers|answer|stream|change|hunk):/;

const saveDelayMs = 250;

/** Base64 characters of images the saved state holds at most (about 1.5 MB of images). */
export const maxSavedImageChars = 2 * 1024 * 1024;

export class ViewStateStore {
	private _state: PersistedViewState;
	private _timer: ReturnType<typeof setTimeout> | undefined;

	constructor(private readonly _api: StateApi) {
		this._state = parse(_api.getState());
	}

	isOpen(key: string, fallback: boolean): boolean {
		const value = this._state.open[key];
		return typeof value === 'boolean' ? value : fallback;
	}

	setOpen(key: string, open: boolean): void {
		if (this._state.open[key] === open) return;
		this._update({ open: { ...this._state.open, [key]: open } });
	}

	scroll(key: string): number | undefined {
		const value = this._state.scroll[key];
		return typeof value === 'number' ? value : undefined;
	}

	setScroll(key: string, value: number): void {
		if (this._state.scroll[key] === value) return;
		this._update({ scroll: { ...this._state.scroll, [key]: value } });
	}

	get draft(): string {
		return this._state.draft;
	}

	setDraft(draft: string): void {
		if (draft !== this._state.draft) this._update({ draft });
	}

	get chips(): readonly AttachmentChip[] {
		return this._state.chips;
	}

	/**
	 * Images count against a budget (`maxSavedImageChars`): the state is written whole on every
	 * change, and the host keeps it. An image past it stays in the box until the panel is hidden.
	 */
	setChips(chips: readonly AttachmentChip[]): void {
		let images = 0;
		const kept = chips.filter((chip) => {
			if (chip.request.kind !== 'image') return true;
			images += chip.request.dataBase64.length + (chip.thumbnail?.length ?? 0);
			return images <= maxSavedImageChars;
		});
		this._update({ chips: kept });
		// Saved now, not in a moment: the panel may be hidden (and this page dropped) right after.
		this.flush();
	}

	/** Drops the previous run's per-run choices when another run is shown. */
	useRun(runId: string): void {
		if (runId === this._state.runId) return;
		if (this._state.runId === null) {
			this._update({ runId });
			return;
		}
		const keep = <T>(record: Readonly<Record<string, T>>) =>
			Object.fromEntries(Object.entries(record).filter(([key]) => !runScoped.test(key)));
		this._update({ runId, open: keep(this._state.open), scroll: keep(this._state.scroll) });
	}

	/** Writes pending changes now (page hide). */
	flush(): void {
		if (this._timer === undefined) return;
		clearTimeout(this._timer);
		this._timer = undefined;
		this._api.setState(this._state);
	}

	private _update(change: Partial<PersistedViewState>): void {
		this._state = { ...this._state, ...change };
		this._timer ??= setTimeout(() => {
			this._timer = undefined;
			this._api.setState(this._state);
		}, saveDelayMs);
	}
}

function parse(raw: unknown): PersistedViewState {
	const empty: PersistedViewState = { version: 1, runId: null, open: {}, scroll: {}, draft: '', chips: [] };
	if (typeof raw !== 'object' || raw === null) return empty;
	const value = raw as Partial<Record<keyof PersistedViewState, unknown>>;
	if (value.version !== 1) return empty;
	return {
		version: 1,
		runId: typeof value.runId === 'string' ? value.runId : null,
		open: record(value.open, (v): v is boolean => typeof v === 'boolean'),
		scroll: record(value.scroll, (v): v is number => typeof v === 'number' && Number.isFinite(v)),
		draft: typeof value.draft === 'string' ? value.draft : '',
		chips: Array.isArray(value.chips) ? value.chips.filter(isChip) : [],
	};
}

/** The shape only: what the state held came from this webview, and the host checks it in full. */
function isChip(value: unknown): value is AttachmentChip {
	if (typeof value !== 'object' || value === null) return false;
	const chip = value as Partial<Record<keyof AttachmentChip, unknown>>;
	return (
		typeof chip.id === 'string' &&
		typeof chip.label === 'string' &&
		typeof chip.request === 'object' &&
		chip.request !== null &&
		typeof (chip.request as { kind?: unknown }).kind === 'string'
	);
}

function record<T>(raw: unknown, ok: (value: unknown) => value is T): Record<string, T> {
	const out: Record<string, T> = {};
	if (typeof raw !== 'object' || raw === null) return out;
	for (const [key, value] of Object.entries(raw)) {
		if (ok(value)) {
			Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
		}
	}
	return out;
}
