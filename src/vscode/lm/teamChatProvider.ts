import { join } from 'node:path';
import * as vscode from 'vscode';
import { conversationRequest } from '../../core/sessions/conversationTurns.js';
import { Disposable } from '../common/lifecycle.js';
import type { RunStarter } from '../run/runStarter.js';
import type { RunRequest } from '../run/runTypes.js';
import type { ChatModelInfo } from './pickChatModel.js';
import { readFolderTeam, type TeamSource } from '../team/readFolderTeam.js';
import { teamFolder } from '../team/teamFolder.js';
import { massgenVendor, memberChatModels } from './memberChatModels.js';
import { estimateTokens, teamConversation } from './teamChatMessages.js';
import { type TeamModelId, teamModelInfo } from './teamModelInfo.js';
import { answerText, progressText } from './teamResponse.js';

/** What the provider needs of the run controller: the one run path (`RunController.tryStart`). */
export interface TeamChatDeps {
	readonly source: TeamSource;
	readonly runs: RunStarter;
	/** The team a run would use changed (the Team view's refresh: config files, settings, keys, trust, models). */
	readonly onDidChangeTeam: vscode.Event<unknown>;
}

/**
 * The user's teams in VS Code's model picker (vendor `massgen`): the team a run in the folder would
 * use now and the demo team, each "MassGen: <team> (N agents)". A request runs the team on the
 * conversation through the run controller like Ask Team (budgets, the cost question, Workspace
 * Trust, approvals, one run at a time); the response streams a line per phase, then the answer, the
 * vote and the proposed changes, which go to the change review and are never written here.
 *
 * Listing never asks VS Code for models: `selectChatModels` resolves every vendor, ours too, so
 * asking from inside our own listing would wait on itself. The members' models are read outside
 * (`_readMembers`) and the listing uses the last ones read.
 */
export class TeamChatProvider extends Disposable implements vscode.LanguageModelChatProvider {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
	readonly onDidChangeLanguageModelChatInformation = this._onDidChange.event;
	private _teams: Promise<vscode.LanguageModelChatInformation[]> | undefined;
	/** The list VS Code was last given (a change is announced only when the list differs). */
	private _given = '';
	private _members: readonly ChatModelInfo[] = [];
	private _membersRead = false;

	constructor(private readonly _deps: TeamChatDeps) {
		super();
		this._register(_deps.onDidChangeTeam(() => this._refresh()));
		this._register(vscode.lm.onDidChangeChatModels(() => void this._readMembers()));
	}

	async provideLanguageModelChatInformation(): Promise<vscode.LanguageModelChatInformation[]> {
		if (!this._membersRead) {
			this._membersRead = true;
			void this._readMembers();
		}
		const teams = await (this._teams ??= this._readTeams());
		this._given = JSON.stringify(teams);
		return teams;
	}

	async provideLanguageModelChatResponse(
		model: vscode.LanguageModelChatInformation,
		messages: readonly vscode.LanguageModelChatRequestMessage[],
		_options: vscode.ProvideLanguageModelChatResponseOptions,
		progress: vscode.Progress<vscode.LanguageModelResponsePart>,
		token: vscode.CancellationToken,
	): Promise<void> {
		const { runs } = this._deps;
		const conversation = teamConversation(messages);
		const asked = conversationRequest(conversation.messages);
		if (!asked.ok) {
			throw new Error(vscode.l10n.t('MassGen needs a question: the chat must end with a user message.'));
		}
		const folder = teamFolder();
		if (!folder) throw new Error(vscode.l10n.t('Open a folder: a team works on a workspace folder.'));
		const request: RunRequest = {
			question: asked.question,
			kind: 'ask',
			folder: folder.uri,
			...(asked.history.length > 0 ? { history: asked.history } : {}),
			...(conversation.attachments.length > 0 ? { attachments: conversation.attachments } : {}),
			...(model.id === ('demo' satisfies TeamModelId) ? { preset: 'demo' as const } : {}),
		};
		const say = (text: string) => progress.report(new vscode.LanguageModelTextPart(text));
		const outcome = await runs.tryStart(request, token, (batch) => {
			for (const event of batch.events) {
				const line = progressText(event);
				if (line !== undefined) say(line);
			}
		});
		if (token.isCancellationRequested) throw new vscode.CancellationError();
		if (!('run' in outcome)) {
			throw new Error(vscode.l10n.t('The MassGen run did not start: {0}.', outcome.reason));
		}
		say(answerText(outcome.run.result));
	}

	async provideTokenCount(
		_model: vscode.LanguageModelChatInformation,
		text: string | vscode.LanguageModelChatRequestMessage,
	): Promise<number> {
		return estimateTokens(text);
	}

	/** The folder's team and the demo team, as a run would resolve them now. */
	private async _readTeams(): Promise<vscode.LanguageModelChatInformation[]> {
		const folder = teamFolder();
		if (!folder) return [];
		const { source } = this._deps;
		const members = this._members;
		const lmModels = async () => members;
		const demoFile = join(source.shippedConfigsDir, 'demo.yaml');
		const [team, demo] = await Promise.all([
			readFolderTeam(source, folder, lmModels),
			readFolderTeam(source, folder, lmModels, { file: demoFile, preset: true }),
		]);
		const listed = [
			team.snapshot && teamModelInfo('team', team.snapshot, folder.name),
			// The demo once: a folder whose setting names it (`preset:demo`) lists it as its team.
			demo.snapshot && team.snapshot?.file !== demoFile && teamModelInfo('demo', demo.snapshot, folder.name),
		];
		return listed.filter((info): info is vscode.LanguageModelChatInformation => !!info);
	}

	/** Reads the teams again and tells VS Code when the list changed. */
	private _refresh(): void {
		const teams = (this._teams = this._readTeams());
		void teams.then((list) => {
			if (this._teams === teams && JSON.stringify(list) !== this._given) this._onDidChange.fire();
		});
	}

	/** VS Code's models a team may take (the default team adds them), read outside our own listing. */
	private async _readMembers(): Promise<void> {
		const models = await memberChatModels().catch((): ChatModelInfo[] => []);
		const ids = (list: readonly ChatModelInfo[]) => list.map((m) => `${m.vendor}/${m.id}`).join();
		if (ids(models) === ids(this._members)) return;
		this._members = models.map(({ id, family, name, vendor }) => ({ id, family, name, vendor }));
		this._refresh();
	}
}

/** Registers the teams under `massgen` (package.json `contributes.languageModelChatProviders`). */
export function registerTeamChatProvider(deps: TeamChatDeps): vscode.Disposable {
	const provider = new TeamChatProvider(deps);
	const registration = vscode.lm.registerLanguageModelChatProvider(massgenVendor, provider);
	return vscode.Disposable.from(registration, provider);
}
