/**
 * The list of files other tools run or obey: each entry is flagged with its reason (case variants
 * too: macOS and Windows open `.VSCode/tasks.json` as `.vscode/tasks.json`); ordinary source files,
 * deletions and `package.json` edits that change neither scripts nor where dependencies come from
 * are not.
 */
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executableReason, flaggedChanges } from '../../../src/core/changes/executablePaths.js';
import { landingPath } from '../../../src/core/changes/landingPath.js';

const flaggedPaths: Record<string, RegExp> = {
	'.vscode/tasks.json': /folder opens/,
	'.vscode/settings.json': /VS Code and its extensions obey it/,
	'.vscode/launch.json': /debug/,
	'.vscode/extensions.json': /install/,
	'.vscode/mcp.json': /MCP servers/,
	'.mcp.json': /Claude Code starts/,
	'.cursor/mcp.json': /coding agents/,
	'.claude/settings.json': /coding agents/,
	'.codex/config.toml': /coding agents/,
	'.gemini/settings.json': /coding agents/,
	'.github/workflows/x.yml': /CI runs it after a push/,
	'.github/actions/setup/action.yml': /CI runs it/,
	'.gitlab-ci.yml': /CI runs it/,
	'.circleci/config.yml': /CI runs it/,
	'.husky/pre-commit': /hook/,
	'.pre-commit-config.yaml': /every commit/,
	'.gitattributes': /filter and diff drivers/,
	'sub/.gitattributes': /filter and diff drivers/,
	'.gitmodules': /submodule/,
	'.devcontainer/devcontainer.json': /lifecycle commands/,
	'.envrc': /direnv/,
	Makefile: /make runs it/,
	'tools/GNUmakefile': /make runs it/,
	'AGENTS.md': /instructions/,
	'CLAUDE.md': /instructions/,
	'packages/web/CLAUDE.md': /instructions/,
	'.github/copilot-instructions.md': /instructions/,
	'vendor/github.com/x/y.go': /vendored/,
	'team.code-workspace': /workspace opens/,
	'.VSCode/Tasks.JSON': /folder opens/,
	'.GitHub/Workflows/x.yml': /CI runs it/,
	'.gitea/workflows/ci.yml': /CI runs it/,
	'.forgejo/workflows/ci.yml': /CI runs it/,
	'.drone.yml': /CI runs it/,
	'.githooks/pre-commit': /hook/,
	'eslint.config.js': /folder opens/,
	'packages/web/.eslintrc.cjs': /folder opens/,
	'prettier.config.mjs': /folder opens/,
	'tests/conftest.py': /folder opens/,
	'build.rs': /folder opens/,
	gradlew: /build wrapper/,
	'gradle/wrapper/gradle-wrapper.properties': /build wrapper/,
	'.mvn/wrapper/maven-wrapper.properties': /build wrapper/,
};

describe('executable paths', () => {
	it('flags each entry, new or edited, with its reason', () => {
		for (const [path, reason] of Object.entries(flaggedPaths)) {
			expect(executableReason(path, null, 'x')?.reason, path).toMatch(reason);
			expect(executableReason(path, 'old', 'new')?.reason, path).toMatch(reason);
		}
	});

	it('control: source files, docs, look-alikes and deletions are not flagged', () => {
		for (const path of [
			'src/app.js',
			'README.md',
			'docs/agents.md.txt',
			'.vscode-test.mjs',
			'.github/ISSUE_TEMPLATE/bug.md',
			'vendored.txt',
			'src/makefile.ts',
			'.gitignore',
			'src/eslint.ts',
			'tests/test_conftest_helpers.py',
			'src/build.rs.md',
			'gradle.properties',
		]) {
			expect(executableReason(path, null, 'x'), path).toBeNull();
		}
		expect(executableReason('.github/workflows/x.yml', 'on: push', null)).toBeNull();
	});

	it('package.json: flagged when scripts change or a dependency comes from off the registry', () => {
		const base = JSON.stringify({ name: 'x', scripts: { test: 'vitest' }, dependencies: { a: '^1.0.0' } });
		const edit = (patch: object) => JSON.stringify({ ...JSON.parse(base), ...patch });
		expect(executableReason('package.json', base, edit({ version: '2.0.0' }))).toBeNull();
		expect(
			executableReason('package.json', base, edit({ dependencies: { a: '^1.1.0', b: '2' } })),
		).toBeNull();
		expect(
			executableReason('package.json', base, edit({ dependencies: { a: '^1.0.0', w: 'workspace:*' } })),
		).toBeNull();
		expect(
			executableReason('package.json', base, edit({ scripts: { test: 'vitest', postinstall: 'node x' } }))
				?.reason,
		).toMatch(/npm runs its scripts/);
		expect(
			executableReason('apps/web/package.json', base, edit({ devDependencies: { e: 'github:evil/e' } }))
				?.reason,
		).toMatch(/fetches e from github:evil\/e/);
		expect(executableReason('package.json', null, JSON.stringify({ scripts: { x: 'y' } }))).toEqual({
			kind: 'install',
			reason: 'npm runs its scripts (install hooks on every npm install)',
		});
		expect(executableReason('package.json', base, '{ not json')).toBeNull();
	});

	it('flaggedChanges keeps the change set order and skips the rest', () => {
		expect(
			flaggedChanges([
				{ path: 'src/a.ts', base: null, content: 'x' },
				{ path: '.husky/pre-push', base: null, content: 'x' },
				{ path: 'AGENTS.md', base: 'a', content: 'b' },
			]).map((flag) => flag.path),
		).toEqual(['.husky/pre-push', 'AGENTS.md']);
	});

	it('judges where a write lands: a link the repository holds to a flagged folder is flagged (control: a plain folder)', () => {
		const root = mkdtempSync(join(tmpdir(), 'massgen-landing-'));
		mkdirSync(join(root, '.github', 'workflows'), { recursive: true });
		mkdirSync(join(root, 'src'));
		symlinkSync(join('.github', 'workflows'), join(root, 'wf'));
		expect(landingPath(root, 'wf/x.yml')).toBe('.github/workflows/x.yml');
		expect(landingPath(root, 'src/a.ts')).toBeUndefined();
		expect(landingPath(root, 'new/dir/a.ts')).toBeUndefined();
		const change = { path: 'wf/x.yml', base: null, content: 'on: push', landsAt: '.github/workflows/x.yml' };
		expect(flaggedChanges([change])).toEqual([expect.objectContaining({ path: 'wf/x.yml', kind: 'ci' })]);
		expect(executableReason('wf/x.yml', null, 'on: push')).toBeNull();
	});
});
