import { join, relative, resolve } from 'node:path';
import { apiKeyVariables, type ApiKeySources } from '../core/config/apiKeys.js';
import { formatIssue, hasErrors } from '../core/config/configIssue.js';
import { defaultLocalBaseUrls } from '../core/config/defaultTeam.js';
import { loadConfigText } from '../core/config/loadConfig.js';
import { teamAvailability } from '../core/team/teamAvailability.js';
import {
	type DraftAgent,
	draftAgentId,
	type TeamDraft,
	teamConfigYaml,
	writeTeamConfigFile,
} from '../core/team/writeTeamConfig.js';
import { cliKeys } from './cliHost.js';
import type { InitArgs } from './initArgs.js';
import { askTeamDraft, type Prompter, terminalPrompter } from './initPrompts.js';
import { initSuggestion, type InitSuggestion } from './initSuggestion.js';
import { shellWord } from './shellWord.js';

export interface InitIo {
	readonly stdout: NodeJS.WritableStream;
	readonly stderr: NodeJS.WritableStream;
	readonly env: NodeJS.ProcessEnv;
	readonly stdin: NodeJS.ReadableStream;
	/** Both stdin and stderr are terminals: the questions can be asked. */
	readonly interactive: boolean;
}

/**
 * `massgen init`: the team from `--agent` flags, or asked for on a terminal, written as the same
 * commented YAML the editor's Build Team writes; never over an existing file without `--yes` or a yes.
 */
export async function initCommand(args: InitArgs, io: InitIo): Promise<number> {
	const out = resolve(args.workspace, args.out ?? join('.massgen', 'config.yaml'));
	const keys = await cliKeys(args.workspace, io.env);
	if (args.agents.length === 0 && !io.interactive) {
		io.stderr.write('massgen: init needs --agent PROVIDER:MODEL when not run on a terminal\n');
		return 1;
	}
	const prompter = io.interactive ? terminalPrompter(io.stdin, io.stderr) : undefined;
	try {
		const draft =
			args.agents.length > 0
				? fromFlags(args)
				: await askTeamDraft(prompter!, keys, io.stderr, await suggestion(args.workspace, io));
		if (!draft) {
			io.stderr.write('massgen: no agent chosen; nothing written\n');
			return 1;
		}
		tellDroppedCredentials(args, draft, io.stderr);
		return await write(out, draft, args, keys, io, prompter);
	} catch (error) {
		if ((error as Error).name !== 'AbortError') throw error;
		io.stderr.write('\nmassgen: init cancelled; nothing written\n');
		return 4;
	} finally {
		prompter?.close();
	}
}

/** Suggest a Team over the workspace's runs; none when the runs cannot be read (init goes on without it). */
async function suggestion(workspace: string, io: InitIo): Promise<InitSuggestion | undefined> {
	try {
		return await initSuggestion(resolve(workspace), io.env);
	} catch (error) {
		io.stderr.write(`massgen: no suggested team: ${(error as Error).message}\n`);
		return undefined;
	}
}

/** Names where the key goes instead of a URL's password (which was not written). */
function tellDroppedCredentials(args: InitArgs, draft: TeamDraft, stderr: NodeJS.WritableStream): void {
	args.agents.forEach((agent, i) => {
		if (!agent.droppedCredentials) return;
		const written = draft.agents[i]!;
		const { variables } = apiKeyVariables({ type: written.type, base_url: written.baseUrl });
		const where = variables.length
			? `set ${variables.join(' or ')} in the environment or .env`
			: 'give it in the environment';
		stderr.write(
			`massgen: ${written.id}: the user name and password in --base-url are not written to the config (it is no place for secrets); the URL is kept without them. For the server's key, ${where}\n`,
		);
	});
}

function fromFlags(args: InitArgs): TeamDraft {
	const taken = new Set<string>();
	const agents = args.agents.map((agent): DraftAgent => {
		const id = draftAgentId(agent.model, taken);
		taken.add(id);
		const baseUrl = agent.baseUrl ?? defaultLocalBaseUrls[agent.type];
		return {
			id,
			type: agent.type,
			model: agent.model,
			...(baseUrl ? { baseUrl } : {}),
			...(agent.role ? { systemMessage: agent.role } : {}),
		};
	});
	return { agents, options: args.options };
}

async function write(
	out: string,
	draft: TeamDraft,
	args: InitArgs,
	keys: ApiKeySources,
	io: InitIo,
	prompter: Prompter | undefined,
): Promise<number> {
	const text = teamConfigYaml(draft, 'massgen init');
	// The writer's output always fits the schema; a choice may not (e.g. a preset that needs base_url).
	const loaded = loadConfigText(text, out);
	if (!loaded.config || hasErrors(loaded.issues)) {
		for (const issue of loaded.issues) io.stderr.write(`${formatIssue(issue)}\n`);
		io.stderr.write('massgen: the team is not valid; nothing written\n');
		return 1;
	}
	let outcome = await writeTeamConfigFile(out, text, args.yes);
	if (outcome === 'exists') {
		const overwrite = prompter ? await prompter.confirm(`${out} exists. Overwrite it?`) : false;
		if (!overwrite) {
			const hint = prompter ? '' : ' (--yes overwrites it)';
			io.stderr.write(`massgen: ${out} exists; left unchanged${hint}\n`);
			return 1;
		}
		outcome = await writeTeamConfigFile(out, text, true);
	}
	io.stdout.write(`wrote ${out}\n`);
	for (const agent of await teamAvailability(loaded.config.agents, { keys })) {
		const mark = agent.available ? 'ok' : '!!';
		io.stdout.write(`  ${mark} ${agent.id}  ${agent.provider}/${agent.model}  ${agent.reason}\n`);
	}
	const inDefault = out === resolve(args.workspace, '.massgen', 'config.yaml');
	const where = resolve(args.workspace) === process.cwd() ? '' : `--workspace ${shellWord(args.workspace)} `;
	const config = inDefault ? where : `--config ${shellWord(relative(process.cwd(), out) || out)} `;
	io.stdout.write(`next: massgen run ${config}"QUESTION"\n`);
	return 0;
}
