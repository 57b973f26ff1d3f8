import type { BackendSettings } from '../spec/backendSettings.js';
import type { ErrorContext } from './errors.js';
import { guardedStream } from './guardedStream.js';
import { lazyClient, type ClientFactory } from './lazyClient.js';
import type { ChatModel, ChatRequest, ModelEvent } from '../spec/model.js';

/**
 * What every adapter over an official SDK shares: its identity, the error context that names the
 * key variable, a lazily created client (the SDK is imported on first use), and the guarded stream
 * that turns every failure into a `ProviderError`. Subclasses translate one call in `run`.
 */
export abstract class SdkModel<Client> implements ChatModel {
	readonly provider: string;
	readonly modelId: string;
	readonly capabilities = { tools: true, reasoning: true, images: true };
	protected readonly client: () => Promise<Client>;
	private readonly context: ErrorContext;

	constructor(
		protected readonly settings: BackendSettings,
		keyVariable: string | undefined,
		factory: ClientFactory<Client>,
	) {
		this.provider = settings.type;
		this.modelId = settings.model;
		this.context = { provider: settings.type, keyVariable, apiKey: settings.apiKey };
		this.client = lazyClient(factory);
	}

	async prepare(): Promise<void> {
		await this.client().catch(() => undefined);
	}

	stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
		return guardedStream(this.context, signal, (inner, ctx) => this.run(request, inner, ctx));
	}

	protected abstract run(
		request: ChatRequest,
		signal: AbortSignal,
		ctx: ErrorContext,
	): AsyncGenerator<ModelEvent>;
}
