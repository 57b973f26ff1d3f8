/**
 * "Add Context…" (docs/context.md): a quick pick of kinds, then one picker per kind, each offering what
 * VS Code knows (open editors, the git extension's changes, diagnostics, shell-integration
 * commands, the workspace's files and images). Returns ask-box chips; nothing runs and nothing is
 * read here but what a chip needs to show (an image's thumbnail): the core reads the rest under
 * the tools' path policy when the question is asked.
 */
import * as vscode from 'vscode';
import { imageExtension, sniffImageType } from '../../core/context/imageType.js';
import { secretPaths, type SecretPaths } from '../../core/workspace/secretPaths.js';
import { MAX_CHIPS, MAX_THUMBNAIL_CHARS, type AttachmentChip } from '../../protocol/attachmentChip.js';
import { readSecretPathsSetting } from '../run/secretPathsSetting.js';
import { defaultFolder } from '../common/runFolders.js';
import {
	diagnosticChips,
	diffChip,
	diffChoice,
	diffDetail,
	diffLabel,
	fileDiagnosticCaps,
	fileChip,
	offeredPath,
	openEditorPaths,
	pathChip,
	terminalChip,
	workspaceDiagnosticCaps,
	type DiffChoice,
	type FileDiagnostics,
	type TerminalExecution,
} from './contextChips.js';
import { workspacePath } from './editorAttachments.js';
import { editorDiagnostic } from './fixCodeActions.js';
import { gitChanges } from './gitChanges.js';
import { vscodePickerUi, type PickerUi } from './pickerUi.js';
import type { TerminalHistory } from './terminalHistory.js';

export interface ContextPickerDeps {
	/** Commands recorded through shell integration since activation. */
	readonly terminals: TerminalHistory<vscode.Terminal>;
	/** The session's secrets (terminal output may print a key). */
	readonly redact: (text: string) => string;
}

interface Scope {
	readonly folder: vscode.WorkspaceFolder;
	readonly secrets: SecretPaths;
	readonly ui: PickerUi;
	readonly deps: ContextPickerDeps;
}

type Kind = 'editors' | 'git' | 'problems' | 'terminal' | 'path' | 'image';

const kinds = (): readonly (vscode.QuickPickItem & { id: Kind })[] => [
	{
		id: 'editors',
		label: vscode.l10n.t('$(files) Open Editors'),
		description: vscode.l10n.t('files open in the editor'),
	},
	{
		id: 'git',
		label: vscode.l10n.t('$(git-compare) Git Changes'),
		description: vscode.l10n.t('working tree or staged diff'),
	},
	{
		id: 'problems',
		label: vscode.l10n.t('$(warning) Problems'),
		description: vscode.l10n.t("the active file's or the workspace's"),
	},
	{
		id: 'terminal',
		label: vscode.l10n.t('$(terminal) Terminal Output'),
		description: vscode.l10n.t('a command and its output'),
	},
	{
		id: 'path',
		label: vscode.l10n.t('$(file) File or Folder…'),
		description: vscode.l10n.t('from the workspace'),
	},
	{
		id: 'image',
		label: vscode.l10n.t('$(file-media) Image…'),
		description: vscode.l10n.t('PNG, JPEG, GIF or WebP from the workspace'),
	},
];

/** The chips the user picked; undefined when they cancelled. */
export async function pickContext(
	deps: ContextPickerDeps,
	ui: PickerUi = vscodePickerUi,
): Promise<AttachmentChip[] | undefined> {
	const folder = defaultFolder();
	if (!folder) {
		ui.notify(vscode.l10n.t('open a folder first: context comes from the workspace folder.'));
		return undefined;
	}
	const [choice] =
		(await ui.pick(kinds(), {
			title: vscode.l10n.t('Add Context'),
			placeHolder: vscode.l10n.t('What should the team see?'),
			canPickMany: false,
		})) ?? [];
	if (!choice) return undefined;
	const scope: Scope = {
		folder,
		secrets: secretPaths(readSecretPathsSetting(folder.uri).patterns),
		ui,
		deps,
	};
	const chips = await pickers[choice.id](scope);
	if (chips && chips.length > MAX_CHIPS) {
		ui.notify(
			vscode.l10n.t(
				'only the first {0} of {1} are attached (the ask box holds {2}).',
				MAX_CHIPS,
				chips.length,
				MAX_CHIPS,
			),
		);
		return chips.slice(0, MAX_CHIPS);
	}
	return chips;
}

const pickers: Record<Kind, (scope: Scope) => Promise<AttachmentChip[] | undefined>> = {
	editors: pickEditors,
	git: pickGitChanges,
	problems: pickProblems,
	terminal: pickTerminalOutput,
	path: (scope) => pickFromDialog(scope, false),
	image: (scope) => pickFromDialog(scope, true),
};

async function pickEditors({ folder, secrets, ui }: Scope): Promise<AttachmentChip[] | undefined> {
	const tabs = vscode.window.tabGroups.all.flatMap((group) =>
		group.tabs.flatMap((tab) =>
			tab.input instanceof vscode.TabInputText
				? [{ scheme: tab.input.uri.scheme, fsPath: tab.input.uri.fsPath, isDirty: tab.isDirty }]
				: [],
		),
	);
	const { paths, notes } = openEditorPaths(folder.uri.fsPath, tabs, secrets);
	if (notes.length) ui.notify(vscode.l10n.t('not offered: {0}.', notes.join('; ')));
	if (paths.length === 0) {
		ui.notify(vscode.l10n.t('no open editor of the workspace folder can be attached.'));
		return [];
	}
	const items = paths.map((path) => ({ label: path, path, picked: true }));
	const picked = await ui.pick(items, {
		title: vscode.l10n.t('Add Context: Open Editors'),
		placeHolder: vscode.l10n.t('Files to attach (as saved on disk)'),
		canPickMany: true,
	});
	return picked?.map((item) => fileChip(item.path));
}

async function pickGitChanges({ folder, secrets, ui }: Scope): Promise<AttachmentChip[] | undefined> {
	const changes = await gitChanges(folder.uri);
	if (!changes.ok) {
		ui.notify(vscode.l10n.t('git changes cannot be listed: {0}.', changes.reason));
		return [];
	}
	const root = folder.uri.fsPath;
	const choices = [
		diffChoice(root, 'working-tree', changes.workingTree, secrets),
		diffChoice(root, 'staged', changes.index, secrets),
	].filter((choice) => choice.files.length > 0 || choice.secret > 0);
	if (choices.length === 0) {
		ui.notify(vscode.l10n.t('the workspace folder has no changes a git diff would show.'));
		return [];
	}
	const items = choices.map((choice: DiffChoice) => ({
		label: diffLabel(choice.source),
		description: vscode.l10n.t('{0} file(s)', choice.files.length),
		detail: diffDetail(choice),
		choice,
	}));
	const picked = await ui.pick(items, {
		title: vscode.l10n.t('Add Context: Git Changes'),
		placeHolder: vscode.l10n.t('Which diff to attach'),
		canPickMany: true,
	});
	return picked?.map((item) => diffChip(item.choice));
}

async function pickProblems({ folder, secrets, ui }: Scope): Promise<AttachmentChip[] | undefined> {
	const active = vscode.window.activeTextEditor?.document.uri;
	const activePath = active?.scheme === 'file' ? workspacePath(folder.uri.fsPath, active.fsPath) : undefined;
	const scopes = [
		...(active && activePath ? [{ label: vscode.l10n.t('Problems in {0}', activePath), uri: active }] : []),
		{ label: vscode.l10n.t('Workspace Errors and Warnings'), uri: undefined },
	];
	const [scope] =
		(await ui.pick(scopes, {
			title: vscode.l10n.t('Add Context: Problems'),
			placeHolder: vscode.l10n.t('Whose problems'),
			canPickMany: false,
		})) ?? [];
	if (!scope) return undefined;
	const files: FileDiagnostics[] = scope.uri
		? [{ fsPath: scope.uri.fsPath, items: vscode.languages.getDiagnostics(scope.uri).map(editorDiagnostic) }]
		: vscode.languages
				.getDiagnostics()
				.filter(([uri]) => uri.scheme === 'file')
				.map(([uri, items]) => ({ fsPath: uri.fsPath, items: items.map(editorDiagnostic) }));
	const chips = diagnosticChips(
		folder.uri.fsPath,
		files,
		secrets,
		scope.uri ? fileDiagnosticCaps : workspaceDiagnosticCaps,
	);
	if (chips.length === 0) {
		ui.notify(
			scope.uri
				? vscode.l10n.t('{0} has no problems.', activePath ?? '')
				: vscode.l10n.t('the workspace has no errors or warnings.'),
		);
	}
	return chips;
}

async function pickTerminalOutput({ ui, deps }: Scope): Promise<AttachmentChip[] | undefined> {
	const terminals = vscode.window.terminals;
	const active = vscode.window.activeTerminal;
	const ordered = active ? [active, ...terminals.filter((terminal) => terminal !== active)] : terminals;
	const executions = ordered.flatMap((terminal) => deps.terminals.executions(terminal));
	if (executions.length === 0) {
		ui.notify(noExecutions(terminals, active));
		return [];
	}
	const items = executions.map((execution: TerminalExecution, i) => ({
		label: execution.commandLine,
		description: execution.terminal,
		detail: executionDetail(execution),
		picked: i === 0,
		execution,
	}));
	const picked = await ui.pick(items, {
		title: vscode.l10n.t('Add Context: Terminal Output'),
		placeHolder: vscode.l10n.t('Commands (with their output) to attach'),
		canPickMany: true,
	});
	return picked?.map(({ execution }) =>
		terminalChip({
			...execution,
			output: deps.redact(execution.output),
			commandLine: deps.redact(execution.commandLine),
		}),
	);
}

/** A command that printed before VS Code's start event reached the extension shows no output (a VS Code race). */
function executionDetail(execution: TerminalExecution): string {
	const exit = execution.exitCode === undefined ? [] : [vscode.l10n.t('exit code {0}', execution.exitCode)];
	const lines = execution.output ? execution.output.split('\n').length : 0;
	return [
		...exit,
		lines ? vscode.l10n.t('{0} line(s) of output', lines) : vscode.l10n.t('no output was recorded'),
	].join(', ');
}

function noExecutions(terminals: readonly vscode.Terminal[], active: vscode.Terminal | undefined): string {
	if (terminals.length === 0) return vscode.l10n.t('no terminal is open.');
	const blind = terminals.filter((terminal) => terminal.shellIntegration === undefined);
	if (active && active.shellIntegration === undefined) {
		return vscode.l10n.t(
			'shell integration is not active in the terminal \'{0}\', so its commands cannot be read (it needs bash, zsh, fish or PowerShell and "terminal.integrated.shellIntegration.enabled").',
			active.name,
		);
	}
	const more = blind.length
		? vscode.l10n.t(' ({0} terminal(s) without shell integration)', blind.length)
		: '';
	return vscode.l10n.t('no command has finished in a terminal since MassGen started{0}.', more);
}

/** A thumbnail only for an image small enough to post to the panel as it is. */
const thumbnailBytes = Math.floor((MAX_THUMBNAIL_CHARS - 64) / 4) * 3;

async function pickFromDialog(
	{ folder, secrets, ui }: Scope,
	images: boolean,
): Promise<AttachmentChip[] | undefined> {
	const uris = await ui.openDialog({
		title: images ? vscode.l10n.t('Attach Images') : vscode.l10n.t('Attach Files or Folders'),
		defaultUri: folder.uri,
		canSelectFiles: true,
		canSelectFolders: !images,
		canSelectMany: true,
		openLabel: 'Attach',
		...(images ? { filters: { Images: ['png', 'jpg', 'jpeg', 'gif', 'webp'] } } : {}),
	});
	if (!uris) return undefined;
	const chips: AttachmentChip[] = [];
	const notes: string[] = [];
	for (const uri of uris) {
		const offered = offeredPath(folder.uri.fsPath, uri.fsPath, secrets);
		if ('refused' in offered) {
			notes.push(offered.refused);
			continue;
		}
		const stat = await vscode.workspace.fs.stat(uri).then(
			(info) => info,
			() => undefined,
		);
		if (!stat) {
			notes.push(vscode.l10n.t('{0} does not exist', offered.path));
			continue;
		}
		const folderPicked = (stat.type & vscode.FileType.Directory) !== 0;
		if (!images || folderPicked) {
			chips.push(
				pathChip(
					offered.path,
					folderPicked ? 'folder' : imageExtension.test(offered.path) ? 'image' : 'file',
				),
			);
			continue;
		}
		const head = await vscode.workspace.fs.readFile(uri);
		const mediaType = sniffImageType(head);
		if (!mediaType) {
			notes.push(vscode.l10n.t('{0} is not a PNG, JPEG, GIF or WebP image', offered.path));
			continue;
		}
		const thumbnail =
			head.byteLength <= thumbnailBytes
				? `data:${mediaType};base64,${Buffer.from(head).toString('base64')}`
				: undefined;
		chips.push(pathChip(offered.path, 'image', thumbnail));
	}
	if (notes.length) ui.notify(vscode.l10n.t('not attached: {0}.', notes.join('; ')));
	return chips;
}
