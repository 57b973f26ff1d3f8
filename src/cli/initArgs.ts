import { parseArgs } from 'node:util';
import { backendTypes, type BackendType } from '../core/config/backendSchema.js';
import { type DraftOptions, type Sensitivity, withoutCredentials } from '../core/team/writeTeamConfig.js';

export interface InitAgentArg {
	readonly type: BackendType;
	readonly model: string;
	readonly baseUrl?: string;
	readonly role?: string;
	/** `--base-url` carried a user name or password: left out of `baseUrl` (never written or printed). */
	readonly droppedCredentials?: boolean;
}

/** `massgen init`: with no `--agent`, it asks on the terminal. */
export interface InitArgs {
	readonly kind: 'init';
	readonly workspace: string;
	/** Default: `<workspace>/.massgen/config.yaml`. */
	readonly out?: string;
	/** Overwrite an existing file without asking. */
	readonly yes: boolean;
	readonly agents: readonly InitAgentArg[];
	readonly options: DraftOptions;
}

export const initUsage = `  massgen init [--agent PROVIDER:MODEL [--role TEXT] [--base-url URL]]... [--out FILE] [--workspace DIR] [--yes]
               [--voting lenient|balanced|strict|checklist_gated] [--max-answers N] [--timeout SECONDS] [--agent-timeout SECONDS]
               [--quorum N|majority]`;

export const initHelp = `init      Write a team config (default: <workspace>/.massgen/config.yaml). On a terminal with no --agent it
          lists what is available here (providers with a key in the environment or .env, with their
          models; local servers answering on their usual ports) and asks, first offering the team
          Suggest a Team finds in your runs here (docs/stats.md) with its evidence; otherwise:
          --agent      a member, e.g. openai:gpt-5-mini or ollama:qwen3:8b; repeatable. --role and
                       --base-url after it apply to it
          --out        the file to write; an existing file is kept unless --yes (or you agree on a terminal)
          --voting     how readily agents vote (default lenient); checklist_gated: before voting, each
                       agent scores every answer on a checklist written from the task and grown by the
                       agents, and votes only for one that meets it (docs/config.md#checklists)
          --quorum     end coordination as soon as N agents (or a majority) vote for one answer, without
                       waiting for the rest (default: off, every live agent votes)`;

const sensitivities: readonly Sensitivity[] = ['lenient', 'balanced', 'strict'];

/** Parses `init`'s words (after `init`); an error message for the user instead of throwing. */
export function parseInitArgs(argv: readonly string[], cwd: string): InitArgs | { readonly error: string } {
	let parsed;
	try {
		parsed = parseArgs({
			args: [...argv],
			strict: true,
			tokens: true,
			allowPositionals: false,
			options: {
				agent: { type: 'string', multiple: true },
				role: { type: 'string', multiple: true },
				'base-url': { type: 'string', multiple: true },
				out: { type: 'string' },
				workspace: { type: 'string' },
				yes: { type: 'boolean', short: 'y', default: false },
				voting: { type: 'string' },
				'max-answers': { type: 'string' },
				timeout: { type: 'string' },
				'agent-timeout': { type: 'string' },
				quorum: { type: 'string' },
			},
		});
	} catch (error) {
		return { error: (error as Error).message };
	}
	const agents: {
		type: BackendType;
		model: string;
		baseUrl?: string;
		role?: string;
		droppedCredentials?: boolean;
	}[] = [];
	// --role and --base-url belong to the --agent before them: the tokens keep the order.
	for (const token of parsed.tokens) {
		if (token.kind !== 'option' || token.value === undefined) continue;
		if (token.name === 'agent') {
			const agent = parseAgent(token.value);
			if ('error' in agent) return agent;
			agents.push(agent);
			continue;
		}
		if (token.name !== 'role' && token.name !== 'base-url') continue;
		const last = agents.at(-1);
		if (!last) return { error: `--${token.name} comes after the --agent it belongs to` };
		if (token.name === 'role') {
			last.role = token.value;
			continue;
		}
		const url = withoutCredentials(token.value);
		if (url === undefined) return { error: '--base-url is not a URL (e.g. http://localhost:11434/v1)' };
		last.baseUrl = url.text;
		if (url.dropped) last.droppedCredentials = true;
	}
	const { values } = parsed;
	const checklist = values.voting === 'checklist_gated';
	if (values.voting !== undefined && !checklist && !sensitivities.includes(values.voting as Sensitivity)) {
		return {
			error: `--voting is one of ${[...sensitivities, 'checklist_gated'].join(', ')}, not '${values.voting}'`,
		};
	}
	const numbers = {
		maxAnswersPerAgent: positive(values['max-answers'], '--max-answers', true),
		orchestratorTimeoutSeconds: positive(values.timeout, '--timeout'),
		agentTimeoutSeconds: positive(values['agent-timeout'], '--agent-timeout'),
	};
	for (const value of Object.values(numbers)) if (typeof value === 'string') return { error: value };
	const quorum = values.quorum === undefined ? undefined : parseQuorum(values.quorum);
	if (quorum === null) {
		return { error: `--quorum is a whole number of agents or 'majority', not '${values.quorum}'` };
	}
	const options: DraftOptions = {
		...(checklist
			? { checklist: true }
			: values.voting
				? { votingSensitivity: values.voting as Sensitivity }
				: {}),
		...(quorum !== undefined ? { quorum } : {}),
		...(Object.fromEntries(Object.entries(numbers).filter(([, v]) => v !== undefined)) as DraftOptions),
	};
	return {
		kind: 'init',
		workspace: values.workspace ?? cwd,
		...(values.out ? { out: values.out } : {}),
		yes: values.yes ?? false,
		agents,
		options,
	};
}

/** `3` or `majority` (any case); null for anything else. */
export function parseQuorum(text: string): number | 'majority' | null {
	const word = text.trim().toLowerCase();
	if (word === 'majority') return 'majority';
	return /^[1-9]\d*$/.test(word) ? Number(word) : null;
}

/** `provider:model`, split at the first colon (`ollama:qwen3:8b` is ollama's `qwen3:8b`). */
export function parseAgent(text: string): { type: BackendType; model: string } | { error: string } {
	const at = text.indexOf(':');
	const type = text.slice(0, at).trim();
	const model = text.slice(at + 1).trim();
	if (at <= 0 || !model) {
		return { error: `--agent is PROVIDER:MODEL (e.g. openai:gpt-5-mini), not '${text}'` };
	}
	if (!(backendTypes as readonly string[]).includes(type)) {
		return { error: `unknown provider '${type}' (one of ${backendTypes.join(', ')})` };
	}
	return { type: type as BackendType, model };
}

function positive(value: string | undefined, flag: string, integer = false): number | string | undefined {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (Number.isFinite(number) && number > 0 && (!integer || Number.isInteger(number))) return number;
	return `${flag} must be a positive ${integer ? 'whole number' : 'number'}, not '${value}'`;
}
