/** Anything with a disposal path. Structurally compatible with `vscode.Disposable`. */
export interface IDisposable {
	dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
	let done = false;
	return {
		dispose() {
			if (done) return;
			done = true;
			fn();
		},
	};
}

/**
 * Owns a set of disposables and disposes them in reverse order of registration, once.
 * Adding to a disposed store disposes the newcomer immediately (so nothing leaks after deactivate).
 */
export class DisposableStore implements IDisposable {
	private readonly _items: IDisposable[] = [];
	private _disposed = false;

	get isDisposed(): boolean {
		return this._disposed;
	}

	add<T extends IDisposable>(item: T): T {
		if (this._disposed) item.dispose();
		else this._items.push(item);
		return item;
	}

	dispose(): void {
		if (this._disposed) return;
		this._disposed = true;
		const errors: unknown[] = [];
		for (const item of this._items.splice(0).reverse()) {
			try {
				item.dispose();
			} catch (error) {
				errors.push(error);
			}
		}
		if (errors.length === 1) throw errors[0];
		if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed');
	}
}

/** Base class for resource owners: register children with `_register`, dispose them all at once. */
export abstract class Disposable implements IDisposable {
	private readonly _store = new DisposableStore();

	protected _register<T extends IDisposable>(item: T): T {
		return this._store.add(item);
	}

	protected get _isDisposed(): boolean {
		return this._store.isDisposed;
	}

	dispose(): void {
		this._store.dispose();
	}
}
