import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Document, isMap, isSeq, type YAMLMap } from 'yaml';
import { apiKeyVariables } from '../config/apiKeys.js';
import type { BackendType } from '../config/backendSchema.js';
import { atomicWrite } from '../util/atomicWrite.js';
import { defaultVotingThreshold } from '../orchestrator/types.js';

/** One member the builder (editor) or `massgen init` (CLI) chose. */
export interface DraftAgent {
	readonly id: string;
	readonly type: BackendType;
	readonly model: string;
	readonly baseUrl?: string;
	readonly systemMessage?: string;
}

export type Sensitivity = 'lenient' | 'balanced' | 'strict';

/** The orchestrator options the builder asks for; unset ones keep the schema's defaults. */
export interface DraftOptions {
	readonly votingSensitivity?: Sensitivity;
	/** After this many accepted answers an agent must vote. */
	readonly maxAnswersPerAgent?: number;
	readonly orchestratorTimeoutSeconds?: number;
	readonly agentTimeoutSeconds?: number;
	/** `orchestrator.coordination.quorum`: end coordination once this many agents back one answer. */
	readonly quorum?: number | 'majority';
	/**
	 * "Evaluate with a checklist": `voting_sensitivity: checklist_gated` (over `votingSensitivity`),
	 * criteria written from the task and grown by the agents (docs/config.md#checklists).
	 */
	readonly checklist?: boolean;
}

export interface TeamDraft {
	readonly agents: readonly DraftAgent[];
	readonly options?: DraftOptions;
}

/**
 * The team as a commented `config.yaml` (MassGen's schema): a header saying who wrote it and where
 * keys come from, a line per agent on what it needs, and the options with what they do. The `yaml`
 * library writes the values, so any model name or role text is quoted as it must be.
 */
export function teamConfigYaml(draft: TeamDraft, writtenBy: string): string {
	if (draft.agents.length === 0) throw new Error('a team needs at least one agent');
	const doc = new Document(toPlain(draft));
	doc.commentBefore = [
		` Written by ${writtenBy}. Edit freely: \`massgen validate <this file>\` checks it.`,
		' Keys are never stored here: they come from VS Code (MassGen: Set API Key), the',
		" environment or <workspace>/.env, under MassGen's names (OPENAI_API_KEY, …).",
	].join('\n');
	const agents = doc.get('agents', true);
	if (isSeq(agents)) {
		agents.items.forEach((item, index) => {
			if (isMap(item)) item.commentBefore = ` ${agentNote(draft.agents[index]!)}`;
		});
	}
	comment(
		doc,
		'orchestrator',
		'voting_sensitivity',
		draft.options?.checklist
			? ' checklist_gated: before voting, agents score every answer on the checklist (lenient, balanced or strict instead: how readily they vote).'
			: ' How readily agents vote instead of answering again: lenient, balanced or strict.',
	);
	comment(
		doc,
		'orchestrator',
		'voting_threshold',
		' checklist_gated: an agent may vote only for an answer it scored at least this (1–10) on every criterion.',
	);
	comment(
		doc,
		'orchestrator',
		'max_new_answers_per_agent',
		' After this many accepted answers an agent may only vote.',
	);
	comment(
		doc,
		'orchestrator',
		'coordination',
		[
			' quorum: coordination ends as soon as this many live agents vote for one answer (majority: more than half), without waiting for the rest.',
			' evaluation_criteria_generator: one call writes the checklist from the task; criteria_mode bootstrap_inline: agents add criteria the answers miss.',
			' checklist_criteria_inline: [{ text, category: primary | standard | stretch }] gives the criteria yourself.',
		]
			.slice(0, draft.options?.checklist ? 3 : 1)
			.join('\n'),
	);
	comment(
		doc,
		'timeout_settings',
		'orchestrator_timeout_seconds',
		' The whole coordination phase, in seconds.',
	);
	comment(doc, 'timeout_settings', 'agent_timeout_seconds', ' One agent turn, in seconds.');
	return doc.toString({ lineWidth: 0 });
}

/**
 * Writes the file only if it does not exist yet (no check-then-write race); `exists` means
 * nothing was written and the caller should ask before calling again with `overwrite`. Atomic
 * either way (`atomicWrite`): an overwrite never leaves a half-written config, and a symlink at
 * the path (a repository's `.massgen/config.yaml -> ~/.bashrc`) is refused, never written through.
 */
export async function writeTeamConfigFile(
	path: string,
	text: string,
	overwrite = false,
): Promise<'written' | 'exists'> {
	await mkdir(dirname(path), { recursive: true });
	try {
		await atomicWrite(path, text, { mode: 0o644, flag: overwrite ? 'replace' : 'create' });
		return 'written';
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
		throw error;
	}
}

/**
 * The URL without `user:password@`: a config file is shared and committed, so credentials never go
 * into one (nor into an error message: an unparsable value is not echoed, it may hold a password).
 */
export function withoutCredentials(text: string): { text: string; dropped: boolean } | undefined {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return undefined;
	}
	if (!url.username && !url.password) return { text, dropped: false };
	url.username = '';
	url.password = '';
	return { text: url.toString(), dropped: true };
}

function toPlain(draft: TeamDraft): Record<string, unknown> {
	const agents = draft.agents.map((agent) => ({
		id: agent.id,
		backend: {
			type: agent.type,
			model: agent.model,
			// Whoever drafted it (init, Build Team), credentials never reach the file.
			...(agent.baseUrl ? { base_url: withoutCredentials(agent.baseUrl)?.text ?? agent.baseUrl } : {}),
		},
		...(agent.systemMessage?.trim() ? { system_message: agent.systemMessage.trim() } : {}),
	}));
	const {
		votingSensitivity,
		maxAnswersPerAgent,
		orchestratorTimeoutSeconds,
		agentTimeoutSeconds,
		quorum,
		checklist,
	} = draft.options ?? {};
	const coordination = {
		...(quorum ? { quorum } : {}),
		...(checklist
			? { evaluation_criteria_generator: { enabled: true }, criteria_mode: 'bootstrap_inline' }
			: {}),
	};
	const sensitivity = checklist ? 'checklist_gated' : votingSensitivity;
	const orchestrator = {
		...(sensitivity ? { voting_sensitivity: sensitivity } : {}),
		...(checklist ? { voting_threshold: defaultVotingThreshold } : {}),
		...(maxAnswersPerAgent ? { max_new_answers_per_agent: maxAnswersPerAgent } : {}),
		...(Object.keys(coordination).length ? { coordination } : {}),
	};
	const timeouts = {
		...(orchestratorTimeoutSeconds ? { orchestrator_timeout_seconds: orchestratorTimeoutSeconds } : {}),
		...(agentTimeoutSeconds ? { agent_timeout_seconds: agentTimeoutSeconds } : {}),
	};
	return {
		agents,
		...(Object.keys(orchestrator).length ? { orchestrator } : {}),
		...(Object.keys(timeouts).length ? { timeout_settings: timeouts } : {}),
	};
}

/** A config-safe id for a model (`gpt-5-mini`, `qwen3-8b`), numbered when `taken` has it already. */
export function draftAgentId(model: string, taken: ReadonlySet<string>): string {
	const slug =
		model
			.toLowerCase()
			.replace(/^.*\//, '')
			.replace(/[^a-z0-9.-]+/g, '-')
			.replace(/^[-.]+|[-.]+$/g, '') || 'agent';
	let id = slug;
	for (let n = 2; taken.has(id); n++) id = `${slug}-${n}`;
	return id;
}

/** What an agent needs to run, as the comment above it. */
export function agentNote(agent: DraftAgent): string {
	if (agent.type === 'vscode_lm') {
		return `${agent.id}: a VS Code language model (no key; only inside VS Code).`;
	}
	if (agent.type === 'scripted') return `${agent.id}: scripted (no model, no key).`;
	const { variables, required } = apiKeyVariables({ type: agent.type, base_url: agent.baseUrl });
	if (required) return `${agent.id}: needs ${variables.join(' or ')}.`;
	const url = agent.baseUrl && (withoutCredentials(agent.baseUrl)?.text ?? agent.baseUrl);
	return `${agent.id}: a local server${url ? ` at ${url}` : ''}; no key needed.`;
}

function comment(doc: Document, section: string, key: string, text: string): void {
	const map = doc.get(section, true) as YAMLMap | undefined;
	const pair = isMap(map)
		? map.items.find((item) => String((item.key as { value?: unknown })?.value) === key)
		: undefined;
	if (pair && pair.key && typeof pair.key === 'object') {
		(pair.key as { commentBefore?: string }).commentBefore = text;
	}
}
