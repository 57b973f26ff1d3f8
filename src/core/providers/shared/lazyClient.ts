/** How adapters obtain their SDK client: injected in tests, lazily imported otherwise. */
export type ClientFactory<T> = () => Promise<T>;

/** Memoises a client factory; a failed creation is retried on the next call. */
export function lazyClient<T>(factory: ClientFactory<T>): () => Promise<T> {
	let pending: Promise<T> | undefined;
	return () => {
		pending ??= factory().catch((error: unknown) => {
			pending = undefined;
			throw error;
		});
		return pending;
	};
}
