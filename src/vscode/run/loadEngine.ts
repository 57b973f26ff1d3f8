import { join } from 'node:path';

export type Engine = typeof import('./runEngine.js');

/** The engine bundle's file name, next to `extension.js` in `dist/` (package.json `build:ext`). */
export const engineBundle = 'engine.js';

/**
 * Loads `dist/engine.js` (the orchestrator, providers, config schema, MCP and permissions: most of
 * the extension's code) at the first run. It is a bundle of its own so that activation neither
 * reads nor compiles it: nothing but this function refers to it, through a path computed at run
 * time, which esbuild leaves as a plain `require`.
 */
export function loadEngineBundle(distDir: string): Promise<Engine> {
	// A computed require, on purpose: an import would make esbuild bundle the engine into activation.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return new Promise<Engine>((resolve) => resolve(require(join(distDir, engineBundle)) as Engine));
}

/**
 * The engine for whoever needs it first (a run, the config diagnostics): loaded once and logged;
 * a failed load (e.g. a missing bundle) is reported by the caller and tried again next time.
 */
export function engineLoader(
	load: () => Promise<Engine>,
	log: { info(message: string): void },
): () => Promise<Engine> {
	let engine: Promise<Engine> | undefined;
	return () => {
		if (engine) return engine;
		const started = performance.now();
		const loading = (engine = load());
		loading.then(
			() => log.info(`run engine loaded in ${(performance.now() - started).toFixed(1)} ms`),
			() => {
				if (engine === loading) engine = undefined;
			},
		);
		return loading;
	};
}
