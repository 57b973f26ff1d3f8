/**
 * How the user, workspace and folder values of one setting become its value: the merge policies the
 * settings table (`settings.ts`) names. Pure, so each is tested against hostile workspace values
 * (test/unit/vscode/settingPolicies.test.ts) without an editor.
 */

/** What `WorkspaceConfiguration.inspect(key)` returns (the levels this extension reads). */
export interface SettingLevels {
	readonly defaultValue?: unknown;
	readonly globalValue?: unknown;
	readonly workspaceValue?: unknown;
	readonly workspaceFolderValue?: unknown;
}

export type SettingLevel = 'user' | 'workspace' | 'folder';

export type MergePolicy =
	/**
	 * VS Code's own precedence (folder over workspace over user over default). Safe only where a
	 * workspace value cannot loosen anything, or where the setting is in `restrictedConfigurations`
	 * (VS Code drops its workspace values in Restricted Mode).
	 */
	| 'plain'
	/** Only the user's own value counts (machine or application scope): a repository cannot set it. */
	| 'userOnly'
	/** The strictest valid value of every level wins: a workspace may tighten the user's value, never loosen it. */
	| 'tightenOnly'
	/** The lists of every level added up: each item only ever adds a restriction. */
	| 'union';

/** The values set at each level, most general first; unset levels are left out. */
export function levelValues(
	levels: SettingLevels | undefined,
): readonly { readonly level: SettingLevel; readonly value: unknown }[] {
	const all: [SettingLevel, unknown][] = [
		['user', levels?.globalValue],
		['workspace', levels?.workspaceValue],
		['folder', levels?.workspaceFolderValue],
	];
	return all.filter(([, value]) => value !== undefined).map(([level, value]) => ({ level, value }));
}

/** `plain` from inspected levels: the most specific level that is set (the default is the caller's). */
export function mostSpecific(levels: SettingLevels | undefined): unknown {
	return levels?.workspaceFolderValue ?? levels?.workspaceValue ?? levels?.globalValue;
}

/** `userOnly`: the user's own value; workspace and folder values never count. */
export function userValue(levels: SettingLevels | undefined): unknown {
	return levels?.globalValue;
}

/**
 * `tightenOnly`: of the valid values at every level, the one `strictness` ranks highest; invalid
 * values are skipped, so a hostile level can only add a stricter candidate. A user who set nothing
 * has the default, which a workspace may not loosen either (`providerTools: allow` over the default
 * `ask`). `undefined` when none.
 */
export function tightest<T>(
	levels: SettingLevels | undefined,
	valid: (value: unknown) => value is T,
	strictness: (value: T) => number,
): T | undefined {
	let best: T | undefined;
	const userOrDefault = levels?.globalValue === undefined ? levels?.defaultValue : undefined;
	const candidates = [
		...(userOrDefault === undefined ? [] : [{ value: userOrDefault }]),
		...levelValues(levels),
	];
	for (const { value } of candidates) {
		if (valid(value) && (best === undefined || strictness(value) > strictness(best))) best = value;
	}
	return best;
}

/**
 * `union`: the items of every level's list, most general level first, each tagged with its level.
 * `accept` turns an item into what is merged (or `undefined`: skipped, the caller says why); a level
 * set to something that is not a list goes to `notAList`; `counts` can leave out a whole list.
 * Callers drop duplicates: where the same item may land differs (permission rules keep a trusted
 * workspace's allow rules apart).
 */
export function union<T>(
	entries: readonly { readonly level: SettingLevel; readonly value: unknown }[],
	hooks: {
		readonly notAList: (level: SettingLevel) => void;
		readonly counts?: (level: SettingLevel, list: readonly unknown[]) => boolean;
		readonly accept: (item: unknown, level: SettingLevel) => T | undefined;
	},
): { readonly level: SettingLevel; readonly item: T }[] {
	const merged: { level: SettingLevel; item: T }[] = [];
	for (const { level, value } of entries) {
		if (!Array.isArray(value)) {
			hooks.notAList(level);
			continue;
		}
		if (hooks.counts && !hooks.counts(level, value)) continue;
		for (const raw of value as unknown[]) {
			const item = hooks.accept(raw, level);
			if (item !== undefined) merged.push({ level, item });
		}
	}
	return merged;
}
