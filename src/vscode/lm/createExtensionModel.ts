import type { BackendSettings } from '../../core/providers/spec/backendSettings.js';
import { createModel, type CreateModelOptions } from '../../core/providers/createModel.js';
import type { ChatModel } from '../../core/providers/spec/model.js';
import { type ChatModelLookup, VscodeLmModel } from './vscodeLmModel.js';

/**
 * The core's `createModel`, plus `type: vscode_lm`, which only exists inside VS Code. `images` says
 * whether a model takes image inputs, from the models VS Code listed when the team resolved.
 */
export function extensionModelFactory(
	lookup?: ChatModelLookup,
	images: (model: string) => boolean = () => false,
) {
	return (settings: BackendSettings, options: CreateModelOptions): ChatModel =>
		settings.type === 'vscode_lm'
			? new VscodeLmModel(settings.model, lookup, images(settings.model))
			: createModel(settings, options);
}
