/**
 * Where the CLI remembers folder trust: `trusted-folders.json` beside the "always allow" store in
 * the user's config folder (`defaultStorePath`), never in the workspace, so a repository cannot
 * ship its own trust. Keyed by the folder's real path and holding the hash of exactly what was
 * trusted (`TrustListing.hash`): a changed config is asked again, and a folder path that is a link
 * now pointing elsewhere finds no entry. Written atomically (temporary file and rename, mode 0600).
 */
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { realpathOrNull } from '../core/util/paths.js';
import { defaultStorePath } from './permissionStore.js';

export interface TrustedFolder {
	/** `TrustListing.hash` of what the user trusted. */
	readonly hash: string;
	/** When (ISO time), and the lines the user was shown, for `massgen trust --list`. */
	readonly trustedAt: string;
	readonly items: readonly string[];
}

export function defaultTrustStorePath(env: NodeJS.ProcessEnv): string {
	return join(dirname(defaultStorePath(env)), 'trusted-folders.json');
}

export class FileTrustStore {
	constructor(private readonly file: string) {}

	/** The entry for this folder (by its real path now), if any. */
	get(folder: string): TrustedFolder | undefined {
		const key = realpathOrNull(folder);
		return key === null ? undefined : this.read()[key];
	}

	set(folder: string, entry: TrustedFolder): void {
		this.update((all) => {
			all[realpathSync(folder)] = entry;
		});
	}

	/** True when there was an entry to remove. */
	remove(folder: string): boolean {
		const key = realpathOrNull(folder) ?? folder;
		let found = false;
		this.update((all) => {
			found = Object.hasOwn(all, key);
			delete all[key];
		});
		return found;
	}

	list(): Readonly<Record<string, TrustedFolder>> {
		return this.read();
	}

	private update(change: (all: Record<string, TrustedFolder>) => void): void {
		const all = this.read();
		change(all);
		mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
		const temp = `${this.file}.${process.pid}.tmp`;
		writeFileSync(temp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
		renameSync(temp, this.file);
	}

	private read(): Record<string, TrustedFolder> {
		try {
			const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
			if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
			// No prototype: a key `__proto__` in a hand-edited file stays a key.
			const out = Object.create(null) as Record<string, TrustedFolder>;
			for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
				const entry = value as Partial<TrustedFolder> | null;
				if (typeof entry?.hash !== 'string') continue;
				out[key] = {
					hash: entry.hash,
					trustedAt: typeof entry.trustedAt === 'string' ? entry.trustedAt : '',
					items: Array.isArray(entry.items) ? entry.items.filter((line) => typeof line === 'string') : [],
				};
			}
			return out;
		} catch {
			return {};
		}
	}
}
