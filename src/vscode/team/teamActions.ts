import * as vscode from 'vscode';
import type { TeamEdit } from '../../core/team/editTeamConfig.js';
import { commandIds } from '../common/commandIds.js';
import type { Engine } from '../run/loadEngine.js';
import type { TeamNode } from './teamTree.js';

type AgentNode = Extract<TeamNode, { kind: 'agent' }>;

/** A row the action was invoked on, if it is an agent of an editable file. */
function editableAgent(node: unknown): AgentNode | undefined {
	const agent = node as Partial<AgentNode> | undefined;
	if (agent?.kind !== 'agent' || !agent.row || !agent.snapshot) return undefined;
	if (!agent.snapshot.editable || agent.row.added) {
		void vscode.window.showInformationMessage(
			vscode.l10n.t(
				'MassGen: {0} is not your file (a shipped team). Build Team writes one you can edit.',
				agent.snapshot.file,
			),
		);
		return undefined;
	}
	return agent as AgentNode;
}

/**
 * One agent edited in its config file through the file's document, as one `WorkspaceEdit`, so
 * Undo in the editor takes it back; a file that was clean is saved (runs read the disk).
 */
export async function applyTeamEdit(engine: Engine, file: string, edit: TeamEdit): Promise<boolean> {
	const uri = vscode.Uri.file(file);
	const document = await vscode.workspace.openTextDocument(uri);
	const text = document.getText();
	const result = engine.team.editTeamConfigText(text, edit);
	if ('error' in result) {
		void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: cannot edit {0}: {1}', file, result.error));
		return false;
	}
	const wasDirty = document.isDirty;
	const change = new vscode.WorkspaceEdit();
	change.replace(
		uri,
		new vscode.Range(document.positionAt(0), document.positionAt(text.length)),
		result.text,
	);
	if (!(await vscode.workspace.applyEdit(change))) {
		void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0} could not be edited.', file));
		return false;
	}
	if (!wasDirty) await document.save();
	return true;
}

export async function removeAgent(engine: () => Promise<Engine>, node: unknown): Promise<boolean> {
	const agent = editableAgent(node);
	if (!agent) return false;
	const remove = vscode.l10n.t('Remove');
	const answer = await vscode.window.showWarningMessage(
		vscode.l10n.t("Remove agent '{0}' from {1}?", agent.row.id, agent.snapshot.file),
		{ modal: true, detail: vscode.l10n.t('Undo in the editor brings it back.') },
		remove,
	);
	if (answer !== remove) return false;
	return applyTeamEdit(await engine(), agent.snapshot.file, { kind: 'remove', id: agent.row.id });
}

export async function editRole(
	engine: () => Promise<Engine>,
	node: unknown,
	given?: string,
): Promise<boolean> {
	const agent = editableAgent(node);
	if (!agent) return false;
	const role =
		given ??
		(await vscode.window.showInputBox({
			title: vscode.l10n.t('MassGen: role of {0}', agent.row.id),
			prompt: vscode.l10n.t('Its system message (empty: none)'),
			value: agent.row.role ?? '',
		}));
	if (role === undefined) return false;
	return applyTeamEdit(await engine(), agent.snapshot.file, { kind: 'role', id: agent.row.id, role });
}

export async function changeModel(
	engine: () => Promise<Engine>,
	models: (
		provider: string,
		baseUrl: string | undefined,
		snapshot: AgentNode['snapshot'],
	) => Promise<readonly string[]>,
	node: unknown,
	given?: string,
): Promise<boolean> {
	const agent = editableAgent(node);
	if (!agent) return false;
	let model = given;
	if (model === undefined) {
		const other = vscode.l10n.t('$(edit) Another model…');
		const listed = await models(agent.row.provider, agent.row.baseUrl, agent.snapshot);
		const items = [
			...listed.map((label) => ({ label, picked: label === agent.row.model })),
			{ label: other },
		];
		const picked = await vscode.window.showQuickPick(items, {
			title: vscode.l10n.t('MassGen: model of {0} ({1})', agent.row.id, agent.row.provider),
			placeHolder: vscode.l10n.t('Now: {0}', agent.row.model),
		});
		if (!picked) return false;
		model =
			picked.label === other
				? await vscode.window.showInputBox({
						title: vscode.l10n.t('MassGen: model of {0}', agent.row.id),
						value: agent.row.model,
					})
				: picked.label;
	}
	if (!model?.trim()) return false;
	return applyTeamEdit(await engine(), agent.snapshot.file, { kind: 'model', id: agent.row.id, model });
}

/** Nothing is available: the shipped scripted demo answers a sample question (the team settings stay as they are). */
export async function runDemoTeam(): Promise<void> {
	await vscode.commands.executeCommand(commandIds.tryDemoTeam);
}
