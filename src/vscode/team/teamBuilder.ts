import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ApiKeySources } from '../../core/config/apiKeys.js';
import type { DraftAgent, DraftOptions, Sensitivity } from '../../core/team/writeTeamConfig.js';
import type { Engine } from '../run/loadEngine.js';
import { clearConfigSetting, readConfigSetting, writeUserConfigSetting } from '../common/settings.js';
import { teamFolder } from './teamFolder.js';
import { availableChoices, type MemberChoice } from './teamChoices.js';
import { askInput, askPick, back, type BuilderStep, type StepHook } from './quickSteps.js';
import type { TeamSuggestion } from '../../core/stats/suggestTeam.js';
import type { TeamMember } from './teamMember.js';
import { evidenceItems, suggestedMembers, suggestionSummary } from './suggestionItems.js';

export interface BuilderDeps {
	readonly engine: () => Promise<Engine>;
	readonly keys: () => Promise<ApiKeySources>;
	readonly lmModels: () => Promise<readonly vscode.LanguageModelChat[]>;
	/** The team the user's own runs suggest (Suggest a Team's), offered first; undefined when there is none. */
	readonly suggestion: () => Promise<TeamSuggestion | undefined>;
	/** Called with each step as it shows (the in-host test answers through it). */
	readonly onStep?: StepHook;
}

/** Where a user-level team lives (the `massgen.config` user setting then points at it). */
export const userTeamFile = (): string => join(homedir(), '.config', 'massgen', 'team.yaml');

type Member = MemberChoice & vscode.QuickPickItem;

/** What the writer needs: the members, a role each (empty: none), the options, and where (the user's file or the folder's). */
export interface TeamToWrite {
	readonly members: readonly TeamMember[];
	readonly roles: readonly string[];
	readonly options: DraftOptions;
	readonly user: boolean;
}

/**
 * "MassGen: Build Team": pick members among what is available here, a role each, the options
 * that matter (voting, answer cap, timeout, quorum: default off), and where to keep it; writes a commented config (core `teamConfigYaml`) that
 * validates, never over an existing file without asking. Back goes one step back.
 */
export async function buildTeam(deps: BuilderDeps): Promise<string | undefined> {
	const engine = await deps.engine();
	const [keys, lm, suggestion] = await Promise.all([
		deps.keys(),
		deps.lmModels().catch(() => []),
		deps.suggestion().catch(() => undefined),
	]);
	const choices = await vscode.window.withProgress(
		{ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('MassGen: looking for models') },
		() => availableChoices(engine, keys, lm),
	);
	if (choices.length === 0) {
		void vscode.window.showWarningMessage(
			vscode.l10n.t(
				'MassGen: no model is available here: no VS Code language model, no API key, no local server (Ollama, LM Studio, vLLM, SGLang). Set an API key, or try the demo team from the Team view.',
			),
		);
		return undefined;
	}
	const items = choices.map((choice): Member => ({ ...choice, description: choice.group }));
	const state: { members: Member[]; roles: string[]; options: DraftOptions; user: boolean } = {
		members: [],
		roles: [],
		options: {},
		user: false,
	};
	const steps: (() => Promise<boolean | typeof back | undefined>)[] = [];
	// The suggested team first, when every one of its members is available here to pick.
	const suggested = suggestion && suggestedItems(suggestion, items);
	const first = suggested ? 1 : 0;
	const total = () => first + 6 + state.members.length;
	const step = (name: string, index: () => number): BuilderStep => ({
		name,
		title: vscode.l10n.t('MassGen: Build Team'),
		step: first + index(),
		totalSteps: total(),
		...(deps.onStep ? { onStep: deps.onStep } : {}),
	});
	if (suggestion && suggested) {
		steps.push(async () => {
			const use = {
				label: vscode.l10n.t('$(sparkle) Start from the Suggested Team'),
				detail: suggestionSummary(suggestion),
			};
			const own = { label: vscode.l10n.t('$(list-selection) Choose the Members Myself') };
			const picked = await askPick(
				step('suggestion', () => 0),
				[use, own, ...evidenceItems(suggestion)],
				{
					placeholder: vscode.l10n.t('Your runs here suggest a team'),
					takes: (item) => item === use || item === own,
				},
			);
			if (!picked || picked === back) return picked;
			if (picked[0] === use) state.members = [...suggested];
			return true;
		});
	}
	steps.push(async () => {
		const picked = await askPick(
			step('members', () => 1),
			items,
			{
				canSelectMany: true,
				placeholder: vscode.l10n.t('Members of the team (two or more agents compare and vote)'),
				selected: state.members,
			},
		);
		if (!picked || picked === back) return picked;
		if (picked.length === 0) return back;
		state.members = [...picked];
		state.roles = state.members.map((_, i) => state.roles[i] ?? '');
		return true;
	});
	const roleStep = (i: number) => async () => {
		const member = state.members[i];
		if (!member) return true;
		const role = await askInput(
			step(`role:${i}`, () => 2 + i),
			{
				prompt: vscode.l10n.t('Role of {0}:{1} (its system message; empty: none)', member.type, member.model),
				value: state.roles[i] ?? '',
			},
		);
		if (role === undefined || role === back) return role;
		state.roles[i] = role;
		return true;
	};
	steps.push(async () => {
		// One step per member: run them here so Back inside moves between roles.
		for (let i = 0; i < state.members.length;) {
			const result = await roleStep(i)();
			if (result === undefined) return undefined;
			if (result === back) {
				if (i === 0) return back;
				i--;
			} else i++;
		}
		return true;
	});
	steps.push(async () => {
		const levels = [
			...['lenient', 'balanced', 'strict'].map((label) => ({
				label,
				description: {
					lenient: vscode.l10n.t('agents vote readily (fewer rounds, the default)'),
					balanced: vscode.l10n.t('vote when an answer is clearly good'),
					strict: vscode.l10n.t('answer again unless an answer is excellent'),
				}[label],
				checklist: false,
			})),
			{
				label: vscode.l10n.t('Evaluate with a checklist'),
				description: vscode.l10n.t(
					'agents score every answer on criteria written from the task, and vote only for one that meets them all',
				),
				checklist: true,
			},
		];
		const picked = await askPick(
			step('voting', () => state.members.length + 2),
			levels,
			{
				placeholder: vscode.l10n.t('Voting sensitivity'),
			},
		);
		if (!picked || picked === back) return picked;
		if (picked[0]?.checklist) {
			state.options = { ...state.options, votingSensitivity: undefined, checklist: true };
			return true;
		}
		const level = picked[0]?.label as Sensitivity;
		state.options = {
			...state.options,
			votingSensitivity: level === 'lenient' ? undefined : level,
			checklist: undefined,
		};
		return true;
	});
	steps.push(async () => {
		const cap = await askInput(
			step('answers', () => state.members.length + 3),
			{
				prompt: vscode.l10n.t('Answers per agent before it must vote (empty: no cap)'),
				value: state.options.maxAnswersPerAgent?.toString() ?? '',
				validate: (v) =>
					v === '' || /^[1-9]\d*$/.test(v) ? undefined : vscode.l10n.t('a whole number, or empty'),
			},
		);
		if (cap === undefined || cap === back) return cap;
		const timeout = await askInput(
			step('timeout', () => state.members.length + 4),
			{
				prompt: vscode.l10n.t('Coordination timeout in seconds (empty: 1800)'),
				value: state.options.orchestratorTimeoutSeconds?.toString() ?? '',
				validate: (v) =>
					v === '' || /^[1-9]\d*$/.test(v) ? undefined : vscode.l10n.t('a whole number of seconds, or empty'),
			},
		);
		if (timeout === undefined) return undefined;
		if (timeout === back) return back;
		state.options = {
			...state.options,
			maxAnswersPerAgent: cap ? Number(cap) : undefined,
			orchestratorTimeoutSeconds: timeout ? Number(timeout) : undefined,
		};
		return true;
	});
	steps.push(async () => {
		// Off is MassGen's rule (every live agent votes); a quorum ends coordination once enough agree.
		const size = state.members.length;
		const quorums = [
			{
				label: vscode.l10n.t('Off'),
				description: vscode.l10n.t('wait for every agent’s vote (the default)'),
			},
			{ label: 'majority', description: vscode.l10n.t('more than half of the live agents') },
			...Array.from({ length: Math.max(0, size - 2) }, (_, i) => ({
				label: String(i + 2),
				description: vscode.l10n.t('{0} agents back the same answer', i + 2),
			})),
		];
		const picked = await askPick(
			step('quorum', () => state.members.length + 5),
			quorums,
			{ placeholder: vscode.l10n.t('Quorum: end coordination as soon as enough agents agree') },
		);
		if (!picked || picked === back) return picked;
		const label = picked[0]?.label;
		const quorum = label === 'majority' ? 'majority' : /^\d+$/.test(label ?? '') ? Number(label) : undefined;
		state.options = { ...state.options, quorum };
		return true;
	});
	const folder = teamFolder();
	steps.push(async () => {
		const places = [
			...(folder
				? [{ label: vscode.l10n.t('This workspace'), description: '.massgen/config.yaml', user: false }]
				: []),
			{ label: vscode.l10n.t('For me, in every workspace'), description: userTeamFile(), user: true },
		];
		const picked = await askPick(
			step('where', () => total()),
			places,
			{ placeholder: vscode.l10n.t('Where to keep the team') },
		);
		if (!picked || picked === back) return picked;
		state.user = picked[0]?.user ?? false;
		return true;
	});
	for (let i = 0; i < steps.length;) {
		const result = await steps[i]!();
		if (result === undefined) return undefined;
		i = result === back ? Math.max(0, i - 1) : i + 1;
	}
	return writeTeam(engine, state, folder);
}

/** The builder's items for a suggestion's members, in its order; undefined when one of them is not available here. */
function suggestedItems(suggestion: TeamSuggestion, items: readonly Member[]): Member[] | undefined {
	const found = suggestedMembers(suggestion).map((member) =>
		items.find((item) => item.type === member.type && item.model === member.model),
	);
	return found.every((item) => item !== undefined) ? (found as Member[]) : undefined;
}

/**
 * Build Team's writer (Suggest a Team's too): the team as a commented config that must validate,
 * written atomically to the folder's `.massgen/config.yaml` or the user's team file (then the
 * user setting points at it), never over an existing file without asking; opened afterwards.
 */
export async function writeTeam(
	engine: Engine,
	state: TeamToWrite,
	folder: vscode.WorkspaceFolder | undefined,
): Promise<string | undefined> {
	const taken = new Set<string>();
	const agents = state.members.map((member, i): DraftAgent => {
		const id = engine.team.draftAgentId(member.model, taken);
		taken.add(id);
		const role = state.roles[i]?.trim();
		return {
			id,
			type: member.type,
			model: member.model,
			...(member.baseUrl ? { baseUrl: member.baseUrl } : {}),
			...(role ? { systemMessage: role } : {}),
		};
	});
	const file = state.user || !folder ? userTeamFile() : join(folder.uri.fsPath, '.massgen', 'config.yaml');
	// A suggested member's provider comes from a run's record: one the config does not know fails here.
	let text: string;
	let problem: string | undefined;
	try {
		text = engine.team.teamConfigYaml({ agents, options: state.options }, 'MassGen: Build Team');
		const loaded = engine.team.loadConfigText(text, file);
		if (!loaded.config) problem = loaded.issues[0]?.message ?? vscode.l10n.t('unknown error');
	} catch (error) {
		text = '';
		problem = (error as Error).message;
	}
	if (problem !== undefined) {
		void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: the team is not valid: {0}', problem));
		return undefined;
	}
	const uri = vscode.Uri.file(file);
	if (await exists(uri)) {
		const overwrite = vscode.l10n.t('Overwrite');
		const answer = await vscode.window.showWarningMessage(
			vscode.l10n.t('{0} exists. Overwrite it with the new team?', file),
			{ modal: true },
			overwrite,
		);
		if (answer !== overwrite) return undefined;
	}
	try {
		// Atomic, and never through a link a repository planted at `.massgen/config.yaml`.
		await engine.team.writeTeamConfigFile(file, text, true);
	} catch (error) {
		void vscode.window.showErrorMessage(
			vscode.l10n.t('MassGen: nothing was written. {0}', (error as Error).message),
		);
		return undefined;
	}
	const setting = readConfigSetting(folder?.uri);
	if (state.user) {
		await writeUserConfigSetting(file);
	} else if (setting) {
		// The setting would still win over the new workspace team.
		// Not awaited: the notification may stay open; the file is written either way.
		void offerToClearSetting(setting, file, folder);
	}
	await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true });
	return file;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
	try {
		await vscode.workspace.fs.stat(uri);
		return true;
	} catch {
		return false;
	}
}

/** The setting would still win over the new workspace team: offer to clear it where it is set. */
async function offerToClearSetting(
	setting: string,
	file: string,
	folder: vscode.WorkspaceFolder | undefined,
): Promise<void> {
	const use = vscode.l10n.t('Use the New Team');
	const answer = await vscode.window.showInformationMessage(
		vscode.l10n.t('MassGen: the massgen.config setting ({0}) takes precedence over {1}.', setting, file),
		use,
	);
	if (answer !== use) return;
	await clearConfigSetting(folder?.uri);
}
