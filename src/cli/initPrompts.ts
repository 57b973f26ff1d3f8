import { createInterface } from 'node:readline/promises';
import { type ApiKeySources, resolveApiKey } from '../core/config/apiKeys.js';
import type { BackendType } from '../core/config/backendSchema.js';
import { defaultLocalBaseUrls } from '../core/config/defaultTeam.js';
import { curatedModels, findLocalServers, listProviderModels } from '../core/team/providerModels.js';
import {
	type DraftAgent,
	draftAgentId,
	type DraftOptions,
	type Sensitivity,
	type TeamDraft,
} from '../core/team/writeTeamConfig.js';
import { rawTerminal } from './display/terminalStream.js';
import { visibleControls } from '../protocol/visibleText.js';
import { parseAgent, parseQuorum } from './initArgs.js';
import type { InitSuggestion } from './initSuggestion.js';

export interface Prompter {
	ask(question: string): Promise<string>;
	confirm(question: string): Promise<boolean>;
	close(): void;
}

/** Questions on stderr (stdout stays for results), answers from stdin. */
export function terminalPrompter(stdin: NodeJS.ReadableStream, stderr: NodeJS.WritableStream): Prompter {
	// Readline edits the line with escape sequences: it writes to the terminal itself, and each
	// question (which may name a model a local server listed) is made visible first.
	const rl = createInterface({ input: stdin, output: rawTerminal(stderr), terminal: true });
	// Ctrl-C at a question ends init (the pending question rejects with an AbortError).
	const cancel = new AbortController();
	rl.on('SIGINT', () => cancel.abort());
	const question = async (text: string) =>
		(await rl.question(visibleControls(text), { signal: cancel.signal })).trim();
	return {
		ask: question,
		confirm: async (text) => /^y(es)?$/i.test(await question(`${text} [y/N] `)),
		close: () => rl.close(),
	};
}

interface Candidate {
	readonly type: BackendType;
	readonly model: string;
	readonly baseUrl?: string;
	readonly why: string;
}

/** Models shown per provider (its list can hold a hundred). */
const shownPerProvider = 8;

/** What is available here, as numbered choices: providers with a key (their models), then local servers. */
export async function findCandidates(keys: ApiKeySources): Promise<Candidate[]> {
	const keyed = Object.keys(curatedModels).flatMap((type) => {
		const key = resolveApiKey({ type: type as BackendType }, keys);
		return key.key ? [{ type: type as BackendType, key: key.key, variable: key.variables[0] ?? '' }] : [];
	});
	const [lists, servers] = await Promise.all([
		Promise.all(keyed.map((provider) => listProviderModels(provider.type, provider.key))),
		findLocalServers(),
	]);
	const fromKeys = keyed.flatMap((provider, index) => {
		const list = lists[index]!;
		const why = `${provider.variable} set; ${list.from === 'api' ? 'listed by the provider' : `our short list (${list.note})`}`;
		return list.models.slice(0, shownPerProvider).map((model) => ({ type: provider.type, model, why }));
	});
	const local = servers.flatMap((server) =>
		server.models.slice(0, shownPerProvider).map((model) => ({
			type: server.type as BackendType,
			model,
			baseUrl: server.baseUrl,
			why: `answering at ${server.baseUrl}`,
		})),
	);
	return [...fromKeys, ...local];
}

/** The numbered prompts of `massgen init`: members, a role each, then the orchestrator options. */
export async function askTeamDraft(
	prompter: Prompter,
	keys: ApiKeySources,
	stderr: NodeJS.WritableStream,
	suggestion?: InitSuggestion,
): Promise<TeamDraft | undefined> {
	const suggested = suggestion && (await offerSuggestion(prompter, suggestion, stderr));
	return suggested ? draftOf(prompter, suggested, stderr) : askMembers(prompter, keys, stderr);
}

/** The suggested team first, with its evidence: its members when the user takes it. */
async function offerSuggestion(
	prompter: Prompter,
	suggestion: InitSuggestion,
	stderr: NodeJS.WritableStream,
): Promise<Candidate[] | undefined> {
	stderr.write(
		`From your runs in this folder: the cheapest team whose members' winning changes you accepted at least ` +
			`${Math.round(suggestion.targetAcceptanceRate * 100)}% of the time (about $${suggestion.costPerRunUsd.toFixed(4)} per run):\n` +
			suggestion.evidence.map((line) => `  ${line}\n`).join(''),
	);
	const members = suggestion.members.map((member) => `${member.type}:${member.model}`).join(' ');
	if (!(await prompter.confirm(`Use this team (${members})?`))) return undefined;
	return suggestion.members.map((member) => ({ ...member, why: 'suggested' }));
}

async function askMembers(
	prompter: Prompter,
	keys: ApiKeySources,
	stderr: NodeJS.WritableStream,
): Promise<TeamDraft | undefined> {
	stderr.write('Looking for providers with a key and local servers…\n');
	const candidates = await findCandidates(keys);
	if (candidates.length === 0) {
		stderr.write(
			'No provider key in the environment or .env (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, …)\n' +
				'and no local server answering (Ollama 11434, LM Studio 1234, vLLM 8000, SGLang 30000).\n' +
				'You can still name members as PROVIDER:MODEL.\n',
		);
	}
	candidates.forEach((c, i) =>
		stderr.write(`  ${String(i + 1).padStart(2)}) ${c.type}:${c.model}  (${c.why})\n`),
	);
	const chosen = await pickMembers(prompter, candidates, stderr);
	if (chosen.length === 0) return undefined;
	return draftOf(prompter, chosen, stderr);
}

/** A role for each chosen member, then the orchestrator options. */
async function draftOf(
	prompter: Prompter,
	chosen: readonly Candidate[],
	stderr: NodeJS.WritableStream,
): Promise<TeamDraft> {
	const taken = new Set<string>();
	const agents: DraftAgent[] = [];
	for (const member of chosen) {
		const id = draftAgentId(member.model, taken);
		taken.add(id);
		const role = await prompter.ask(`Role of ${id} (its system message; Enter for none): `);
		const baseUrl = member.baseUrl ?? defaultLocalBaseUrls[member.type];
		agents.push({
			id,
			type: member.type,
			model: member.model,
			...(baseUrl ? { baseUrl } : {}),
			...(role ? { systemMessage: role } : {}),
		});
	}
	return { agents, options: await askOptions(prompter, stderr) };
}

async function pickMembers(
	prompter: Prompter,
	candidates: readonly Candidate[],
	stderr: NodeJS.WritableStream,
): Promise<Candidate[]> {
	for (;;) {
		const hint = candidates.length ? 'numbers and/or PROVIDER:MODEL' : 'PROVIDER:MODEL';
		const answer = await prompter.ask(`Members (${hint}, separated by spaces; Enter to stop): `);
		if (!answer) return [];
		const picked: Candidate[] = [];
		const wrong: string[] = [];
		for (const word of answer.split(/[\s,]+/).filter(Boolean)) {
			const index = /^\d+$/.test(word) ? Number(word) - 1 : -1;
			if (index >= 0) {
				const candidate = candidates[index];
				if (candidate) picked.push(candidate);
				else wrong.push(`${word}: no such number`);
				continue;
			}
			const agent = parseAgent(word);
			if ('error' in agent) wrong.push(agent.error);
			else picked.push({ ...agent, why: 'named' });
		}
		if (wrong.length === 0) return picked;
		stderr.write(`${wrong.join('\n')}\n`);
	}
}

async function askOptions(prompter: Prompter, stderr: NodeJS.WritableStream): Promise<DraftOptions> {
	const options: { -readonly [K in keyof DraftOptions]: DraftOptions[K] } = {};
	const sensitivity = await askUntil(
		prompter,
		stderr,
		'Voting sensitivity: lenient, balanced, strict or checklist_gated (each agent scores every answer on a checklist first) (Enter = lenient): ',
		(a) => (['lenient', 'balanced', 'strict', 'checklist_gated'].includes(a) ? a : undefined),
	);
	if (sensitivity === 'checklist_gated') options.checklist = true;
	else if (sensitivity && sensitivity !== 'lenient') options.votingSensitivity = sensitivity as Sensitivity;
	const cap = await askUntil(
		prompter,
		stderr,
		'Answers per agent before it must vote (Enter = no cap): ',
		whole,
	);
	if (cap) options.maxAnswersPerAgent = Number(cap);
	const timeout = await askUntil(prompter, stderr, 'Coordination timeout in seconds (Enter = 1800): ', whole);
	if (timeout) options.orchestratorTimeoutSeconds = Number(timeout);
	const quorum = await askUntil(
		prompter,
		stderr,
		'Quorum: end coordination once this many agents vote for one answer, a number or majority (Enter = off: every agent votes): ',
		(a) => (parseQuorum(a) === null ? undefined : a),
	);
	if (quorum) options.quorum = parseQuorum(quorum)!;
	return options;
}

const whole = (answer: string) => (/^[1-9]\d*$/.test(answer) ? answer : undefined);

/** Asks again until the answer is empty (the default) or valid. */
async function askUntil(
	prompter: Prompter,
	stderr: NodeJS.WritableStream,
	question: string,
	valid: (answer: string) => string | undefined,
): Promise<string | undefined> {
	for (;;) {
		const answer = (await prompter.ask(question)).toLowerCase();
		if (!answer) return undefined;
		const value = valid(answer);
		if (value) return value;
		stderr.write(`'${answer}' is not one of the answers\n`);
	}
}
