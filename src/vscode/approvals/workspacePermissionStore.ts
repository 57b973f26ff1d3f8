import type { PermissionStore } from '../../core/permissions/permissionEngine.js';

/** The part of `vscode.Memento` the store uses (`ExtensionContext.workspaceState`). */
export interface RuleMemento {
	get<T>(key: string): T | undefined;
	update(key: string, value: unknown): Thenable<void>;
}

export const alwaysAllowKey = 'massgen.permissions.alwaysAllow';

/**
 * "Always allow" decisions of this workspace, in VS Code's workspace state: kept per workspace,
 * outside the workspace's files (a repository must not be able to ship its own grants), and
 * read on every decision, so a grant applies to the run that made it and every later one.
 */
export class WorkspacePermissionStore implements PermissionStore {
	constructor(
		private readonly _memento: RuleMemento,
		private readonly _key = alwaysAllowKey,
	) {}

	rules(): readonly string[] {
		const value = this._memento.get<unknown>(this._key);
		return Array.isArray(value) ? value.filter((rule): rule is string => typeof rule === 'string') : [];
	}

	async add(rule: string): Promise<void> {
		const current = this.rules();
		if (current.includes(rule)) return;
		await this._memento.update(this._key, [...current, rule]);
	}

	/** Forgets every grant (tests; a future "reset" command). */
	async clear(): Promise<void> {
		await this._memento.update(this._key, undefined);
	}
}
