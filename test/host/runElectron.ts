// Launcher (b): runs the in-host suite in desktop VS Code downloaded by @vscode/test-electron.
// Needs network access to update.code.visualstudio.com and, on Linux without a display, xvfb
// (`xvfb-run -a npm run test:electron`). Here and in CI use `npm run test:e2e` (code-server) instead.
// Build first: npm run build:ext && npm run test:e2e:build (the npm script does both).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { e2eCacheRoot } from '../e2e/codeServer';

async function main(): Promise<void> {
	const repoRoot = resolve(__dirname, '..', '..');
	const workspace = mkdtempSync(join(tmpdir(), 'massgen-electron-ws-'));
	mkdirSync(join(workspace, 'src'));
	writeFileSync(
		join(workspace, 'src', 'hello.ts'),
		'export const hello = (name: string) => `Hello, ${name}!`;\n',
	);
	try {
		await runTests({
			version: process.env.MASSGEN_VSCODE_VERSION ?? 'stable',
			// Downloads, user data and extensions stay out of the repo.
			cachePath: join(e2eCacheRoot(), 'vscode-test'),
			// The tests' language-model vendor (test/host/lmRecorder.ts) beside the extension.
			extensionDevelopmentPath: [repoRoot, join(repoRoot, 'test', 'fixtures', 'vscode', 'lm-vendor')],
			extensionTestsPath: join(repoRoot, 'out', 'host', 'index.js'),
			launchArgs: [
				workspace,
				'--disable-extensions',
				'--disable-workspace-trust',
				'--skip-welcome',
				'--skip-release-notes',
				...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
			],
		});
	} finally {
		rmSync(workspace, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
