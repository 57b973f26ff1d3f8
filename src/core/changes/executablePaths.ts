/**
 * Files other programs run or obey later, without the user choosing to run that change: editor
 * tasks on folder open, CI after a push, git hooks on commit, MCP servers and hooks of the next
 * agent run, install scripts. A change set from a (possibly hostile) model that writes one is
 * flagged with the reason: `--apply` lists them and asks, the editor's review marks them and leaves
 * them unticked. Ordinary source files are not here: the user runs those knowingly.
 *
 * Not here because the path policy refuses them outright: `.git/`, `.massgen/`, secret files
 * (`.env*`, `.npmrc` …) and files inside dependency folders (`node_modules/`, `.venv/`, `venv/`:
 * git shows no change there, and the next `require` runs it). Deletions are not flagged: they
 * remove code rather than plant it. A change set cannot set an executable bit (new files are
 * written without one, replaced files keep theirs), so no entry for it.
 */
import type { ExecutableKind } from '../../contract/executableKind.js';

/** Why a file is flagged: `reason` in English for the CLI and logs. */
export interface ExecutableFlag {
	readonly kind: ExecutableKind;
	readonly reason: string;
}

/** A file of a change set that other tools run or obey, and why. */
export interface FlaggedChange extends ExecutableFlag {
	readonly path: string;
}

interface Rule {
	readonly kind: ExecutableKind;
	/** Lower-case, relative to the workspace root; a trailing `/` matches everything under it. */
	readonly paths?: readonly string[];
	/** Lower-case file names that count at any depth. */
	readonly names?: readonly string[];
	readonly reason: string;
}

const ci = 'CI runs it after a push, with the repository’s secrets';
const agentConfig =
	'coding agents (Claude Code, Codex, Cursor, Gemini) obey its settings, hooks and MCP servers';
const instructions = 'coding agents follow it as instructions';

const rules: readonly Rule[] = [
	{
		kind: 'editor',
		paths: ['.vscode/tasks.json'],
		reason: 'VS Code runs its tasks, some when the folder opens',
	},
	{
		kind: 'editor',
		paths: ['.vscode/launch.json'],
		reason: 'VS Code runs its programs and pre-launch tasks when you debug',
	},
	{
		kind: 'editor',
		paths: ['.vscode/settings.json'],
		reason:
			'VS Code and its extensions obey it (tool and interpreter paths, terminal environment, MassGen settings)',
	},
	{
		kind: 'editor',
		paths: ['.vscode/extensions.json'],
		reason: 'VS Code offers to install the extensions it names',
	},
	{
		kind: 'editor',
		paths: ['.vscode/mcp.json'],
		reason: 'VS Code and MassGen start the MCP servers it lists',
	},
	{ kind: 'agents', paths: ['.mcp.json'], reason: 'Claude Code starts the MCP servers it lists' },
	{
		kind: 'agents',
		paths: ['.cursor/', '.claude/', '.codex/', '.gemini/', '.windsurf/'],
		reason: agentConfig,
	},
	{
		kind: 'editor',
		paths: ['.idea/'],
		reason: 'JetBrains IDEs run its run configurations and external tools',
	},
	{
		kind: 'instructions',
		names: ['agents.md', 'claude.md', 'gemini.md', '.cursorrules', '.windsurfrules'],
		paths: ['.github/copilot-instructions.md'],
		reason: instructions,
	},
	{
		kind: 'ci',
		paths: ['.github/workflows/', '.github/actions/', '.gitea/workflows/', '.forgejo/workflows/'],
		reason: ci,
	},
	{
		kind: 'ci',
		paths: [
			'.gitlab-ci.yml',
			'.circleci/',
			'.travis.yml',
			'.buildkite/',
			'azure-pipelines.yml',
			'bitbucket-pipelines.yml',
			'jenkinsfile',
			'.drone.yml',
			'.woodpecker.yml',
			'.woodpecker/',
		],
		reason: ci,
	},
	{ kind: 'git', paths: ['.husky/'], reason: 'git runs it as a hook (husky points core.hooksPath there)' },
	{ kind: 'git', paths: ['.githooks/'], reason: 'git runs it as a hook where core.hooksPath points there' },
	{
		kind: 'git',
		paths: ['.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml'],
		reason: 'git hooks run what it names on every commit',
	},
	{ kind: 'git', names: ['.gitattributes'], reason: 'git runs the filter and diff drivers it names' },
	{ kind: 'git', paths: ['.gitmodules'], reason: 'git submodule fetches what it points to' },
	{
		kind: 'devcontainer',
		paths: ['.devcontainer/', '.devcontainer.json'],
		reason: 'Dev Containers run its lifecycle commands when the container is built or opened',
	},
	{ kind: 'shell', names: ['.envrc'], reason: 'direnv runs it on entering the folder' },
	{
		kind: 'editor',
		names: [
			'eslint.config.js',
			'eslint.config.mjs',
			'eslint.config.cjs',
			'eslint.config.ts',
			'.eslintrc.js',
			'.eslintrc.cjs',
			'prettier.config.js',
			'prettier.config.mjs',
			'prettier.config.cjs',
			'.prettierrc.js',
			'.prettierrc.cjs',
			'.prettierrc.mjs',
			'conftest.py',
			'build.rs',
		],
		reason:
			'editor extensions run it when the folder opens (ESLint, Prettier, pytest test discovery, rust-analyzer)',
	},
	{
		kind: 'install',
		paths: ['gradlew', 'gradlew.bat', 'gradle/wrapper/', 'mvnw', 'mvnw.cmd', '.mvn/'],
		reason: 'Java tooling runs the build wrapper (and downloads what it names) when the project is imported',
	},
	{ kind: 'install', names: ['.yarnrc.yml'], reason: 'yarn runs the yarnPath it names' },
	{ kind: 'install', names: ['.pnpmfile.cjs'], reason: 'pnpm runs it on install' },
	{
		kind: 'make',
		names: ['makefile', 'gnumakefile'],
		reason: 'make runs it; editor extensions run make --dry-run (and its $(shell …)) when the folder opens',
	},
	{
		kind: 'vendor',
		names: ['vendor'],
		reason: 'vendored dependency code: the project runs it as the dependency',
	},
];

/**
 * Why a file that a change set writes is flagged, or null. `base`/`next`: its text before and
 * after; `landsAt`: where the write really lands when a link in the workspace leads elsewhere.
 */
export function executableReason(
	path: string,
	base: string | null,
	next: string | null,
	landsAt?: string,
): ExecutableFlag | null {
	if (next === null) return null;
	if (landsAt !== undefined && landsAt !== path) {
		return executableReason(landsAt, base, next) ?? executableReason(path, base, next);
	}
	const lower = path.toLowerCase();
	const segments = lower.split('/');
	const name = segments.at(-1) ?? '';
	if (lower.endsWith('.code-workspace')) {
		return { kind: 'editor', reason: 'VS Code obeys its settings and tasks when the workspace opens' };
	}
	for (const rule of rules) {
		const byPath = rule.paths?.some((entry) =>
			entry.endsWith('/') ? lower.startsWith(entry) : lower === entry,
		);
		// A name rule matches the file itself or any folder above it (`vendor/…`).
		const byName = rule.names?.some((entry) => segments.includes(entry));
		if (byPath || byName) return { kind: rule.kind, reason: rule.reason };
	}
	if (name !== 'package.json') return null;
	const reason = packageJsonReason(base, next);
	return reason === null ? null : { kind: 'install', reason };
}

/** The flagged files of a change set, in its order. */
export function flaggedChanges(
	changes: readonly {
		readonly path: string;
		readonly base: string | null;
		readonly content: string | null;
		readonly landsAt?: string;
	}[],
): FlaggedChange[] {
	return changes.flatMap((change) => {
		const flag = executableReason(change.path, change.base, change.content, change.landsAt);
		return flag === null ? [] : [{ path: change.path, ...flag }];
	});
}

const dependencyFields = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
/** A dependency fetched from somewhere else than the registry: a URL, git, a path, `user/repo`. */
const offRegistry = /[:/]/;
/** Specs naming a package of the same repository (pnpm/yarn workspaces, pnpm catalogs). */
const sameRepository = /^(workspace|catalog):/;

/**
 * A `package.json` edit is ordinary work; it is flagged when its `scripts` change (npm runs them on
 * the host, install hooks without asking) or a dependency gains a source outside the registry (npm
 * install fetches it and runs its install scripts).
 */
function packageJsonReason(base: string | null, next: string): string | null {
	const before = parseObject(base ?? '{}');
	const after = parseObject(next);
	if (after === null) return null;
	if (JSON.stringify(after['scripts'] ?? null) !== JSON.stringify(before?.['scripts'] ?? null)) {
		return 'npm runs its scripts (install hooks on every npm install)';
	}
	for (const field of dependencyFields) {
		const now = asRecord(after[field]);
		const was = asRecord(before?.[field]);
		for (const [name, spec] of Object.entries(now)) {
			if (
				typeof spec === 'string' &&
				spec !== was[name] &&
				offRegistry.test(spec) &&
				!sameRepository.test(spec)
			) {
				return `npm install fetches ${name} from ${spec} and runs its install scripts`;
			}
		}
	}
	return null;
}

function parseObject(text: string): Record<string, unknown> | null {
	try {
		const value: unknown = JSON.parse(text);
		return asRecord(value);
	} catch {
		return null;
	}
}

function asRecord(value: unknown): Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: {};
}
