import type { AgentConfig } from '../../core/config/schema.js';
import type { ChatModelInfo } from './pickChatModel.js';

/** A VS Code chat model as a team member (`type: vscode_lm`, the exact model id), id `lmAgentId`. */
export function lmMember(model: ChatModelInfo): AgentConfig {
	return { id: lmAgentId(model), backend: { type: 'vscode_lm', model: model.id, options: {} } };
}

/** `copilot-gpt-4o`: a readable, config-safe id for a VS Code model. */
export function lmAgentId(model: ChatModelInfo): string {
	const slug = `${model.vendor}-${model.family}`
		.toLowerCase()
		.replace(/[^a-z0-9.-]+/g, '-')
		.replace(/^-+|-+$/g, '');
	return slug || 'vscode-lm';
}
