import { isMap, isSeq, parseDocument, type YAMLMap } from 'yaml';

/** One change the Team view makes to a team config (by agent id). */
export type TeamEdit =
	| { readonly kind: 'remove'; readonly id: string }
	| { readonly kind: 'role'; readonly id: string; readonly role: string }
	| { readonly kind: 'model'; readonly id: string; readonly model: string };

/**
 * The config text with one agent edited, comments and the rest of the file kept (the `yaml`
 * library's document model). An error instead when the agent is not found, the edit would leave
 * the team empty, or the text is not YAML the loader would accept.
 */
export function editTeamConfigText(text: string, edit: TeamEdit): { text: string } | { error: string } {
	const doc = parseDocument(text);
	if (doc.errors.length > 0) return { error: `the file is not valid YAML (${doc.errors[0]!.message})` };
	const agents = doc.get('agents', true);
	const single = doc.get('agent', true);
	let node: YAMLMap | undefined;
	let index = -1;
	if (isSeq(agents)) {
		index = agents.items.findIndex(
			(item) => isMap(item) && idOf(item, agents.items.indexOf(item)) === edit.id,
		);
		node = index >= 0 ? (agents.items[index] as YAMLMap) : undefined;
	} else if (isMap(single) && idOf(single, 0) === edit.id) {
		node = single;
	}
	if (!node) return { error: `no agent '${edit.id}' in the file` };
	if (edit.kind === 'remove') {
		if (!isSeq(agents) || agents.items.length <= 1) return { error: `'${edit.id}' is the team's only agent` };
		agents.items.splice(index, 1);
	} else if (edit.kind === 'role') {
		const role = edit.role.trim();
		if (role) node.set('system_message', role);
		else node.delete('system_message');
	} else {
		const backend = node.get('backend', true);
		if (!isMap(backend)) return { error: `agent '${edit.id}' has no backend to change` };
		backend.set('model', edit.model.trim());
	}
	return { text: doc.toString({ lineWidth: 0 }) };
}

/** The id the loader gives an agent: its `id`, else `agent<N>` (schema.ts). */
function idOf(agent: YAMLMap, index: number): string {
	const id = agent.get('id');
	return typeof id === 'string' ? id : `agent${index + 1}`;
}
