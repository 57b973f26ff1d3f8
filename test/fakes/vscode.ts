/**
 * A small hand-written stand-in for the `vscode` module, for glue unit tests (test/unit/vscode;
 * wired in test/vitest.config.ts). Only what those tests touch; behaviour mirrors VS Code's
 * documented semantics, and anything else throws so a test never passes by accident.
 */

type Listener<T> = (value: T) => unknown;

export class Disposable {
	constructor(private readonly _fn: () => void) {}
	dispose(): void {
		this._fn();
	}
}

export class EventEmitter<T> {
	private readonly _listeners = new Set<Listener<T>>();
	readonly event = (listener: Listener<T>): Disposable => {
		this._listeners.add(listener);
		return new Disposable(() => this._listeners.delete(listener));
	};
	fire(value: T): void {
		for (const listener of [...this._listeners]) listener(value);
	}
	dispose(): void {
		this._listeners.clear();
	}
}

export class CancellationError extends Error {
	constructor() {
		super('Canceled');
		this.name = 'Canceled';
	}
}

export interface CancellationToken {
	readonly isCancellationRequested: boolean;
	readonly onCancellationRequested: (listener: Listener<void>) => Disposable;
}

export class CancellationTokenSource {
	private readonly _emitter = new EventEmitter<void>();
	private _cancelled = false;
	readonly token: CancellationToken;
	constructor() {
		const isCancelled = () => this._cancelled;
		this.token = {
			get isCancellationRequested() {
				return isCancelled();
			},
			onCancellationRequested: this._emitter.event,
		};
	}
	cancel(): void {
		if (this._cancelled) return;
		this._cancelled = true;
		this._emitter.fire();
	}
	dispose(): void {
		this._emitter.dispose();
	}
}

export class LanguageModelTextPart {
	constructor(public value: string) {}
}

export class LanguageModelToolCallPart {
	constructor(
		public callId: string,
		public name: string,
		public input: object,
	) {}
}

export class LanguageModelToolResultPart {
	constructor(
		public callId: string,
		public content: unknown[],
	) {}
}

export enum LanguageModelChatMessageRole {
	User = 1,
	Assistant = 2,
}

export enum LanguageModelChatToolMode {
	Auto = 1,
	Required = 2,
}

type Part = LanguageModelTextPart | LanguageModelToolResultPart | LanguageModelToolCallPart;

export class LanguageModelChatMessage {
	static User(content: string | Part[], name?: string): LanguageModelChatMessage {
		return new LanguageModelChatMessage(LanguageModelChatMessageRole.User, content, name);
	}
	static Assistant(content: string | Part[], name?: string): LanguageModelChatMessage {
		return new LanguageModelChatMessage(LanguageModelChatMessageRole.Assistant, content, name);
	}
	content: Part[];
	constructor(
		public role: LanguageModelChatMessageRole,
		content: string | Part[],
		public name?: string,
	) {
		this.content = typeof content === 'string' ? [new LanguageModelTextPart(content)] : content;
	}
}

export class LanguageModelError extends Error {
	static NoPermissions(message?: string): LanguageModelError {
		return new LanguageModelError(message, 'NoPermissions');
	}
	static Blocked(message?: string): LanguageModelError {
		return new LanguageModelError(message, 'Blocked');
	}
	static NotFound(message?: string): LanguageModelError {
		return new LanguageModelError(message, 'NotFound');
	}
	constructor(
		message?: string,
		readonly code = 'Unknown',
	) {
		super(message ?? code);
		this.name = 'LanguageModelError';
	}
}

/** Tests set `lm.models` to what `selectChatModels` returns. */
export const lm = {
	models: [] as unknown[],
	selectChatModels: async () => lm.models,
};
