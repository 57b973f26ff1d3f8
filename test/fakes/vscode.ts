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

export class LanguageModelDataPart {
	static image(data: Uint8Array, mime: string): LanguageModelDataPart {
		return new LanguageModelDataPart(data, mime);
	}
	static text(value: string, mime = 'text/plain'): LanguageModelDataPart {
		return new LanguageModelDataPart(new TextEncoder().encode(value), mime);
	}
	constructor(
		public data: Uint8Array,
		public mimeType: string,
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

type Part =
	LanguageModelTextPart | LanguageModelToolResultPart | LanguageModelToolCallPart | LanguageModelDataPart;

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

/** No editor install: no bundled ripgrep under it. */
export const env = { appRoot: '/nonexistent-vscode-app-root' };

/** Tests set `lm.models` to what `selectChatModels` returns. */
export const lm = {
	models: [] as unknown[],
	selectChatModels: async () => lm.models,
};

export class Uri {
	private constructor(
		readonly scheme: string,
		readonly path: string,
	) {}
	static file(path: string): Uri {
		return new Uri('file', path);
	}
	static joinPath(base: Uri, ...parts: string[]): Uri {
		return new Uri(base.scheme, [base.path, ...parts].join('/').replace(/\/+/g, '/'));
	}
	get fsPath(): string {
		return this.path;
	}
	toString(): string {
		return `${this.scheme}://${this.path}`;
	}
}

export enum ViewColumn {
	Active = -1,
	Beside = -2,
	One = 1,
	Two = 2,
}

/** A webview (of a panel or a view) that records what is posted to it; `receive` plays the page. */
class FakeWebview {
	readonly posted: unknown[] = [];
	private readonly _onMessage = new EventEmitter<unknown>();
	readonly webview = {
		html: '',
		options: {} as unknown,
		cspSource: "'self' https://*.vscode-cdn.net",
		asWebviewUri: (uri: Uri) => `https://webview${uri.path}`,
		onDidReceiveMessage: this._onMessage.event,
		postMessage: async (message: unknown) => {
			this.posted.push(message);
			return true;
		},
	};
	receive(message: unknown): void {
		this._onMessage.fire(message);
	}
}

/** A webview panel that records what the host does with it; tests drive `receive`. */
export class FakeWebviewPanel extends FakeWebview {
	readonly revealed: { column: unknown; preserveFocus: unknown }[] = [];
	private _visible = true;
	active = false;
	iconPath: unknown;
	private readonly _onDispose = new EventEmitter<void>();
	private readonly _onViewState = new EventEmitter<unknown>();
	readonly onDidDispose = this._onDispose.event;
	readonly onDidChangeViewState = this._onViewState.event;
	constructor(
		readonly viewType: string,
		public title: string,
		readonly showOptions: unknown,
		readonly options: unknown,
	) {
		super();
	}
	get visible(): boolean {
		return this._visible;
	}
	set visible(value: boolean) {
		this._visible = value;
		this._onViewState.fire({ webviewPanel: this });
	}
	reveal(column?: unknown, preserveFocus?: unknown): void {
		this.revealed.push({ column, preserveFocus });
	}
	dispose(): void {
		this._onDispose.fire();
	}
}

/** A side bar webview view as VS Code resolves it; tests hand it to the host's `resolveView`. */
export class FakeWebviewView extends FakeWebview {
	readonly shown: boolean[] = [];
	badge: { value: number; tooltip: string } | undefined;
	title: string | undefined;
	private _visible = true;
	private readonly _onDispose = new EventEmitter<void>();
	private readonly _onVisibility = new EventEmitter<void>();
	readonly onDidDispose = this._onDispose.event;
	readonly onDidChangeVisibility = this._onVisibility.event;
	get visible(): boolean {
		return this._visible;
	}
	set visible(value: boolean) {
		this._visible = value;
		this._onVisibility.fire();
	}
	/** `preserveFocus` as given, in order. */
	show(preserveFocus?: boolean): void {
		this.shown.push(preserveFocus ?? false);
	}
	dispose(): void {
		this._onDispose.fire();
	}
}

/** Tab inputs the code tells apart with `instanceof`. */
export class TabInputWebview {
	constructor(readonly viewType: string) {}
}

/** Tests read `commands.executed`. */
export const commands = {
	executed: [] as unknown[][],
	executeCommand: async (...args: unknown[]) => {
		commands.executed.push(args);
		return undefined;
	},
};

/** Tests read `window.panels` and set `window.activeTextEditor`. */
export const window = {
	panels: [] as FakeWebviewPanel[],
	activeTextEditor: undefined as unknown,
	/** Tests set the active tab (`{ input: new TabInputWebview(…) }`). */
	tabGroups: { activeTabGroup: { activeTab: undefined as { input: unknown } | undefined } },
	createWebviewPanel(
		viewType: string,
		title: string,
		showOptions: unknown,
		options: unknown,
	): FakeWebviewPanel {
		const panel = new FakeWebviewPanel(viewType, title, showOptions, options);
		window.panels.push(panel);
		return panel;
	},
	showInformationMessage: async (..._args: unknown[]) => undefined,
	showErrorMessage: async (..._args: unknown[]) => undefined,
	showWarningMessage: async (..._args: unknown[]) => undefined,
	/** Every line a channel received, as `level: text`; tests read `window.outputLines`. */
	outputLines: [] as string[],
	createOutputChannel(name: string): unknown {
		const record = (level: string) => (message: unknown) =>
			void window.outputLines.push(`${level}: ${String(message)}`);
		return {
			name,
			info: record('info'),
			warn: record('warn'),
			error: record('error'),
			debug: record('debug'),
			trace: record('trace'),
			appendLine: record('line'),
			show() {},
			dispose() {},
		};
	},
};

/** Tests put extensions in `extensions.installed` by id (`exports` is what `activate()` returns). */
export const extensions = {
	installed: new Map<string, { isActive: boolean; exports: unknown; activate(): Promise<unknown> }>(),
	getExtension: (id: string) => extensions.installed.get(id),
};

/** Tests set `workspace.workspaceFolders`. */
export const workspace = {
	workspaceFolders: undefined as { uri: Uri; name: string; index: number }[] | undefined,
};

/**
 * `vscode.l10n` with no bundle loaded: the English message, its `{0}`/`{name}` placeholders filled
 * as VS Code's own `format2` does (a placeholder with no value stays as written).
 */
export const l10n = {
	bundle: undefined,
	uri: undefined,
	t(
		message: string | { message: string; args?: unknown[] | Record<string, unknown> },
		...rest: unknown[]
	): string {
		const template = typeof message === 'string' ? message : message.message;
		const first = rest[0];
		const values: Record<string, unknown> =
			typeof message !== 'string'
				? { ...(message.args ?? {}) }
				: rest.length === 1 && typeof first === 'object' && first !== null
					? (first as Record<string, unknown>)
					: { ...rest };
		if (Object.keys(values).length === 0) return template;
		return template.replace(/{([^}]+)}/g, (match, key: string) => String(values[key] ?? match));
	},
};
