/**
 * The editor's answer to folder trust (`core/trust`): Workspace Trust gates everything a workspace
 * wrote; in a trusted workspace the parts that would start a program or send a key or environment
 * value (`TrustListing`: workspace stdio servers, `cli_path`, a key to a workspace-chosen host, an
 * MCP server expanding `${env:…}`) still need the user's consent, asked once per folder in a modal
 * listing exactly those commands and hosts, and again when they change (the listing's hash). As
 * Claude Code asks before a project's `.mcp.json` servers and VS Code before a workspace MCP server.
 *
 * Consent lives in the extension's globalState (the user's profile): nothing in the repository,
 * its settings or its `.code-workspace` can pre-seed it, unlike workspaceState keyed by a folder a
 * clone can reproduce, or any file in the folder.
 */
import * as vscode from 'vscode';
import type { TrustItem, TrustListing, WorkspaceTrust } from '../../core/trust/workspaceTrust.js';
import { visibleText } from '../../core/trust/visibleText.js';
import { settings } from '../common/settings.js';

/** globalState key: folder URI → the hash of the listing the user allowed there. */
export const consentStateKey = 'massgen.workspaceConsent';

/** What the user is asked (the modal's text, and the items for a test's prompt). */
export interface ConsentQuestion {
	readonly folder: vscode.Uri;
	readonly message: string;
	readonly detail: string;
	readonly items: readonly TrustItem[];
}

/** Resolves true only when the user allowed exactly these items. */
export type ConsentPrompt = (question: ConsentQuestion) => Promise<boolean>;

export class WorkspaceConsent {
	constructor(
		private readonly _state: Pick<vscode.Memento, 'get' | 'update'>,
		private readonly _prompt: ConsentPrompt = askModal,
	) {}

	/** Consent remembered by this object only, forgotten with it (no store given). */
	static forgetful(): WorkspaceConsent {
		const values = new Map<string, unknown>();
		return new WorkspaceConsent({
			get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
			update: async (key: string, value: unknown) => void values.set(key, value),
		} as Pick<vscode.Memento, 'get' | 'update'>);
	}

	/**
	 * The decision `runSession` enforces for this run's listing: undefined when there is nothing
	 * to decide; untrusted in Restricted Mode (no question: VS Code's own trust comes first) or when
	 * the user did not allow it; trusted when allowed now or before for the same hash.
	 */
	async decide(
		folder: Pick<vscode.WorkspaceFolder, 'uri' | 'name'>,
		listing: TrustListing,
		workspaceTrusted: boolean,
	): Promise<WorkspaceTrust | undefined> {
		if (listing.items.length === 0) return undefined;
		if (!workspaceTrusted) {
			return {
				kind: 'untrusted',
				hint: 'the workspace is in Restricted Mode; trust it first (Manage Workspace Trust)',
			};
		}
		const key = folder.uri.toString();
		if (this._all()[key] === listing.hash) return { kind: 'trusted', hash: listing.hash };
		const allowed = await this._prompt(consentQuestion(folder, listing.items));
		if (!allowed) {
			return { kind: 'untrusted', hint: 'not allowed in MassGen’s question; it asks again at the next run' };
		}
		await this._state.update(consentStateKey, { ...this._all(), [key]: listing.hash });
		return { kind: 'trusted', hash: listing.hash };
	}

	/** The stored map; anything else there (an older shape, junk) counts as nothing allowed. */
	private _all(): Record<string, string> {
		const value = this._state.get<unknown>(consentStateKey);
		if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
		return Object.fromEntries(
			Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
		);
	}
}

/**
 * `massgen.permissions.allow` rules from a trusted workspace's own settings, as an item of the
 * same question: they let tools run without asking, as a workspace team config's
 * `permissions.allow` does (core `allow-rules`), so they count only once the user allowed them.
 */
export function settingsAllowItems(rules: readonly string[]): TrustItem[] {
	if (rules.length === 0) return [];
	return [
		{
			kind: 'allow-rules',
			file: 'workspace settings',
			subject: settings.permissionsAllow.key,
			detail: `lets these run without asking: ${rules.join(', ')}`,
			parts: { allow: [...rules] },
		},
	];
}

/** The question for these items: one line each, every character of the repository's text visible. */
export function consentQuestion(
	folder: Pick<vscode.WorkspaceFolder, 'uri' | 'name'>,
	items: readonly TrustItem[],
): ConsentQuestion {
	const lines = items.map((item) => {
		const where = `${item.file}${item.line === undefined ? '' : `:${item.line}`}`;
		return `• ${visibleText(item.subject)} (${visibleText(where)}): ${visibleText(item.detail)}`;
	});
	return {
		folder: folder.uri,
		message: vscode.l10n.t(
			'MassGen: let the workspace folder “{0}” run these programs and send these values?',
			visibleText(folder.name),
		),
		detail: vscode.l10n.t(
			'Files in this folder ask for:\n\n{0}\n\nAllowed, MassGen remembers it for this folder until one of these changes. Otherwise the run goes on without them.',
			lines.join('\n'),
		),
		items,
	};
}

/** The modal: Allow, or Run Without Them (Escape and Cancel too). */
async function askModal(question: ConsentQuestion): Promise<boolean> {
	const allow = vscode.l10n.t('Allow');
	const without = vscode.l10n.t('Run Without Them');
	const choice = await vscode.window.showWarningMessage(
		question.message,
		{ modal: true, detail: question.detail },
		allow,
		without,
	);
	return choice === allow;
}
