/** A writable that records chunks, posing as a terminal or a pipe. */
export class FakeStream {
	readonly chunks: string[] = [];
	constructor(
		readonly isTTY: boolean,
		readonly columns?: number,
		readonly rows?: number,
	) {}

	write(chunk: string): boolean {
		this.chunks.push(chunk);
		return true;
	}

	get text(): string {
		return this.chunks.join('');
	}
}
