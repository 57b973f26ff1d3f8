import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunHost } from '../../core/run/runHost.js';
import type { UserBudget } from '../../core/run/runBudgetOf.js';
import type { RunToolInputs } from '../../core/run/runTools.js';
import type { ApprovalBroker } from '../../core/permissions/approvalBroker.js';
import type { PermissionStore } from '../../core/permissions/permissionEngine.js';
import type { SessionSecrets } from '../common/log.js';
import type { ShownQuestions } from '../common/shownQuestions.js';
import type { KeyStore } from '../common/secrets.js';
import { readNamedConfig, skippedConfigNotes } from '../config/teamConfigSetting.js';
import type { ConfigDiagnostics } from '../config/configDiagnostics.js';
import { settingsAllowItems, type WorkspaceConsent } from '../trust/workspaceConsent.js';
import { budgetOptions } from './budgetSettings.js';
import { codingAgentPaths } from './codingAgentPaths.js';
import { editorTools } from './editorTools.js';
import type { Engine } from './loadEngine.js';
import { providerToolsPolicy } from './providerToolsSetting.js';
import type { ResolvedTeam } from './vscodeLmModels.js';
import { reportTeamNotes } from './runMessages.js';
import { readSecretPathsSetting } from './secretPathsSetting.js';
import { type RunTeam, runTeamConfig } from './runTeam.js';
import { memberChatModels } from '../lm/memberChatModels.js';

export interface EditorHostInputs {
	readonly engine: Engine;
	readonly folder: vscode.WorkspaceFolder;
	/** Workspace Trust, read once: the config choice, `.env` and the tools all see the same answer. */
	readonly trusted: boolean;
	readonly log: vscode.LogOutputChannel;
	readonly secrets?: SessionSecrets;
	readonly keys: KeyStore;
	readonly diagnostics: ConfigDiagnostics;
	readonly shippedConfigsDir: string;
	readonly env?: NodeJS.ProcessEnv;
	readonly approvals?: { readonly broker: ApprovalBroker; readonly store?: PermissionStore };
	readonly consent: WorkspaceConsent;
	/** The run's cancellation (provider-tools question). */
	readonly signal: AbortSignal;
	/** Where the provider-tools question is recorded when asked (the composition root's; in-host tests read it). */
	readonly questions?: ShownQuestions;
	/** `RunRequest.preset`: this shipped team (`configs/<preset>.yaml`) instead of the setting's. */
	readonly preset?: string;
	/** `RunRequest.team`: this team file for this run only (`runTeamConfig` says how it is judged). */
	readonly team?: RunTeam;
}

/**
 * The editor's answers to the run port: the `massgen.config` setting, VS Code's secret storage and
 * environment (`.env` only in a trusted workspace), its language models, the folder consent modal
 * (with the workspace settings' allow rules in the same question), the budget and provider-tools
 * settings, the Problems view and the log.
 */
export function editorRunHost(inputs: EditorHostInputs): RunHost & { readonly budget: UserBudget } {
	const { engine, folder, trusted, log } = inputs;
	// The massgen.config setting as read for this run (the notes quote it as written).
	let setting = '';
	const editor = inputs.approvals && editorTools({ ...inputs.approvals, folder, trusted, log });
	// The workspace settings' allow rules join the user's only once the folder is trusted for them.
	let tools: RunToolInputs | undefined = editor && withWorkspaceAllow(editor, false);
	const secretPathsSetting = readSecretPathsSetting(folder.uri);
	for (const note of secretPathsSetting.notes) log.warn(`settings: ${note}`);
	const budget = budgetOptions(folder.uri);
	const env = inputs.env ?? process.env;
	return {
		paths: {
			shippedConfigsDir: inputs.shippedConfigsDir,
			...engine.editorPaths(),
			codingAgents: codingAgentPaths(env),
		},
		env,
		workspaceTrusted: trusted,
		storedKeys: () => inputs.keys.getAll(),
		namedConfig: () => {
			const { preset } = inputs;
			if (preset) return { file: join(inputs.shippedConfigsDir, `${preset}.yaml`), preset: true };
			if (inputs.team) {
				const roots = [
					folder.uri.fsPath,
					...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
				];
				return runTeamConfig(inputs.team, inputs.shippedConfigsDir, roots);
			}
			const read = readNamedConfig(folder.uri, inputs.shippedConfigsDir);
			setting = read.setting;
			return read.named;
		},
		learnSecrets: (redactor) => inputs.secrets?.learn(redactor),
		models: engine.editorModels(memberChatModels),
		onTeam: async (resolution, skipped) => {
			const notes = skippedConfigNotes(skipped, setting);
			for (const note of notes) log.warn(note);
			if (!resolution.ok) {
				if (usersFile(resolution.kind)) await inputs.diagnostics.set(resolution.file, resolution.issues);
				log.error(`team config ${resolution.file}: ${resolution.problem}`);
				for (const issue of resolution.issues) {
					log.error(`${issue.file}:${issue.line}:${issue.col}: ${issue.message}`);
				}
				return;
			}
			const team = resolution.team;
			if (usersFile(team.kind)) await inputs.diagnostics.set(team.file, team.issues);
			const members = team.config.agents.map((a) => `${a.id} (${a.backend.type}/${a.backend.model})`);
			log.info(`team: ${team.file} (${team.kind}): ${members.join(', ')}`);
			for (const left of team.dropped) log.info(`team: left out ${left.id}: ${left.why}`);
			reportTeamNotes(team as ResolvedTeam, notes);
		},
		secretPaths: secretPathsSetting.patterns,
		get tools() {
			return tools;
		},
		// Before the run starts anything: what the workspace's own parts would run or send, and the
		// user's answer (the core refuses each part this decision does not cover).
		decideTrust: async (listing) => {
			// Cancelled while the team resolved: nothing to ask (the run is refused as cancelled).
			if (inputs.signal.aborted) return null;
			const extras = settingsAllowItems(editor?.workspaceAllow ?? []);
			const items = [...listing.items, ...extras];
			const asked = extras.length === 0 ? listing : { items, hash: engine.trustHash(items) };
			const answer = await inputs.consent.decide(folder, asked, trusted);
			if (answer?.kind === 'untrusted') {
				log.warn(`trust: the workspace's own parts are refused (${answer.hint})`);
			}
			tools = editor && withWorkspaceAllow(editor, answer?.kind === 'trusted');
			return answer?.kind === 'trusted' ? { kind: 'trusted', hash: listing.hash } : answer;
		},
		budget: budget.budget,
		confirmEstimate: budget.confirmEstimate,
		providerTools: providerToolsPolicy(folder.uri, inputs.signal, inputs.questions),
		log,
	};
}

/**
 * Only the user's team files get Problems entries: a shipped team (the default team, a preset) is
 * the extension's file, and a missing key is reported by the run's notification instead.
 */
function usersFile(kind: string): boolean {
	return kind === 'workspace' || kind === 'setting';
}

/** The run's tool inputs: the workspace settings' allow rules join the user's only when allowed. */
function withWorkspaceAllow(editor: ReturnType<typeof editorTools>, allowed: boolean): RunToolInputs {
	const { workspaceAllow, ...tools } = editor;
	if (!allowed || workspaceAllow.length === 0) return tools;
	return { ...tools, rules: { ...tools.rules, allow: [...(tools.rules?.allow ?? []), ...workspaceAllow] } };
}
