import ignore, { type Ignore } from 'ignore';
import type { Overlay, OverlaySnapshot } from '../workspace/types.js';
import { peekText } from './searchSources.js';

/** Folders search never enters, whatever the .gitignore files say. */
const alwaysSkipped = new Set(['.git', '.massgen', 'node_modules']);

/**
 * Answers "would git ignore this path?" from the `.gitignore` files in the overlay (root and
 * nested, as the agent sees them). Deeper files take precedence, as in git. Callers walk
 * top-down and never enter an ignored folder, so a path's ancestors are known not ignored
 * (`ignoresPath` checks them for a path met out of order). The files are peeked, not captured:
 * a walk looks for a `.gitignore` in every folder, and the run snapshot would hold one entry per
 * folder of the tree.
 */
export class GitignoreFilter {
	private readonly rules = new Map<string, Promise<Ignore | null>>();
	private readonly edits: OverlaySnapshot['edits'];

	constructor(private readonly overlay: Overlay) {
		this.edits = overlay.snapshot().edits;
	}

	async ignores(path: string, isDirectory: boolean): Promise<boolean> {
		const segments = path.split('/');
		if (segments.some((segment) => alwaysSkipped.has(segment))) return true;
		for (let depth = segments.length - 1; depth >= 0; depth--) {
			const dir = depth === 0 ? '.' : segments.slice(0, depth).join('/');
			const rules = await this.rulesFor(dir);
			if (rules === null) continue;
			const below = segments.slice(depth).join('/') + (isDirectory ? '/' : '');
			const verdict = rules.test(below);
			if (verdict.ignored) return true;
			if (verdict.unignored) return false;
		}
		return false;
	}

	/** Whether `path` or any of its folders is ignored. */
	async ignoresPath(path: string, isDirectory: boolean): Promise<boolean> {
		const segments = path.split('/');
		for (let depth = 1; depth <= segments.length; depth++) {
			const folder = depth < segments.length || isDirectory;
			if (await this.ignores(segments.slice(0, depth).join('/'), folder)) return true;
		}
		return false;
	}

	private rulesFor(dir: string): Promise<Ignore | null> {
		let rules = this.rules.get(dir);
		if (rules === undefined) {
			rules = this.load(dir);
			this.rules.set(dir, rules);
		}
		return rules;
	}

	private async load(dir: string): Promise<Ignore | null> {
		const file = dir === '.' ? '.gitignore' : `${dir}/.gitignore`;
		const text = await peekText(this.overlay, this.edits, file).catch(() => null);
		return text === null ? null : ignore().add(text);
	}
}
