/**
 * Where a change's write really lands. Kept apart from `executablePaths.ts`, which the webview's
 * types reach and which must stay free of Node built-ins.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * Where a write to `path` lands, relative to `root`, when links the workspace already holds lead
 * elsewhere inside it (the deepest existing folder's real path, then the rest); undefined when it
 * lands at `path` itself or cannot be told.
 */
export function landingPath(root: string, path: string): string | undefined {
	let realRoot: string;
	try {
		realRoot = realpathSync(root);
	} catch {
		return undefined;
	}
	const segments = path.split('/');
	for (let depth = segments.length; depth > 0; depth--) {
		let real: string;
		try {
			real = realpathSync(join(root, ...segments.slice(0, depth)));
		} catch {
			continue;
		}
		const landed = relative(realRoot, join(real, ...segments.slice(depth)))
			.split(sep)
			.join('/');
		if (landed.startsWith('..') || isAbsolute(landed)) return undefined;
		return landed === path ? undefined : landed;
	}
	return undefined;
}
