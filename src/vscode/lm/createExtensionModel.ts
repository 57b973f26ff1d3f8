import type { BackendSettings } from '../../core/providers/spec/backendSettings.js';
import { createModel, type CreateModelOptions } from '../../core/providers/createModel.js';
import type { ChatModel } from '../../core/providers/spec/model.js';
import { type ChatModelLookup, VscodeLmModel } from './vscodeLmModel.js';

/** The core's `createModel`, plus `type: vscode_lm`, which only exists inside VS Code. */
export function extensionModelFactory(lookup?: ChatModelLookup) {
	return (settings: BackendSettings, options: CreateModelOptions): ChatModel =>
		settings.type === 'vscode_lm'
			? new VscodeLmModel(settings.model, lookup)
			: createModel(settings, options);
}
