import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * `vscode` exists only inside the extension host. Glue tests (test/unit/vscode) and the glue they
 * import (src/vscode) get the hand-written fake; any other importer still fails to resolve it.
 */
function vscodeFake(): Plugin {
	const fake = join(__dirname, 'fakes', 'vscode.ts');
	const allowed = [join(__dirname, 'unit', 'vscode'), join(__dirname, '..', 'src', 'vscode')].map((dir) =>
		dir.replace(/\\/g, '/'),
	);
	return {
		name: 'massgen-vscode-fake',
		enforce: 'pre',
		resolveId(id, importer) {
			if (id !== 'vscode' || !importer) return null;
			const from = importer.replace(/\\/g, '/');
			return allowed.some((dir) => from.startsWith(`${dir}/`)) ? fake : null;
		},
	};
}

export default defineConfig({
	plugins: [vscodeFake()],
	test: {
		include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
		testTimeout: 20_000,
		pool: 'forks',
		// Vitest's default is one worker fewer than the cores: on 2 cores one file at a time, while most
		// files wait on processes, sockets and the disk (unit tests: 102 s of CPU in 272 s). Three
		// workers ran the whole suite green in 299 s instead of 416 s (docs/testing.md).
		maxWorkers: 3,
		setupFiles: ['test/support/cleanup.ts'],
	},
});
