/**
 * Where the CLI keeps "always allow" decisions: a JSON file in the user's config folder
 * (`$XDG_CONFIG_HOME/massgen/permissions.json`, `~/.config/…`, `%APPDATA%\massgen\…`), by
 * workspace folder. Never in the workspace itself: a repository must not be able to ship its
 * own "always allow" rules.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PermissionStore } from '../core/permissions/permissionEngine.js';

export function defaultStorePath(env: NodeJS.ProcessEnv): string {
	const base =
		env['XDG_CONFIG_HOME'] ||
		(process.platform === 'win32' ? env['APPDATA'] : undefined) ||
		join(env['HOME'] || homedir(), '.config');
	return join(base, 'massgen', 'permissions.json');
}

export class FilePermissionStore implements PermissionStore {
	private current: string[];

	constructor(
		private readonly file: string,
		private readonly workspace: string,
	) {
		this.current = this.read()[workspace] ?? [];
	}

	rules(): readonly string[] {
		return this.current;
	}

	add(rule: string): void {
		if (this.current.includes(rule)) return;
		const all = this.read();
		const rules = [...new Set([...(all[this.workspace] ?? []), rule])];
		all[this.workspace] = rules;
		this.current = rules;
		mkdirSync(dirname(this.file), { recursive: true });
		const temp = `${this.file}.${process.pid}.tmp`;
		writeFileSync(temp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
		renameSync(temp, this.file);
	}

	private read(): Record<string, string[]> {
		try {
			const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
			if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
			const out: Record<string, string[]> = {};
			for (const [key, value] of Object.entries(parsed)) {
				if (Array.isArray(value)) out[key] = value.filter((rule): rule is string => typeof rule === 'string');
			}
			return out;
		} catch {
			return {};
		}
	}
}
