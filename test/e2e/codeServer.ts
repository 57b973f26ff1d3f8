// Starts code-server (the real VS Code workbench + Node extension host) on loopback for tests.
// How it fits the suites: test/e2e/README.md. Install it first with test/e2e/setupCodeServer.sh.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The code-servers setupCodeServer.sh installs: the newest (VS Code 1.139.1, the whole suite) and
 * the one of the oldest VS Code `engines.vscode` allows (1.106.3, the smoke leg).
 */
export const codeServerVersions = { newest: '4.139.1', oldest: '4.106.3' } as const;

/** The code-server a run uses: MASSGEN_E2E_CODE_SERVER, else the newest. */
export function codeServerVersion(): string {
	return process.env.MASSGEN_E2E_CODE_SERVER || codeServerVersions.newest;
}

/** The Node code-server runs on (its engines' major), installed beside it by setupCodeServer.sh. */
const serverNodeArch = process.arch === 'arm64' ? 'arm64' : 'x64';

/** Where downloaded test tooling lives, outside the repo (setupCodeServer.sh uses the same default). */
export function e2eCacheRoot(): string {
	return process.env.MASSGEN_E2E_CACHE || join(homedir(), '.cache', 'massgen-e2e');
}

export function codeServerDir(version = codeServerVersion()): string {
	return join(e2eCacheRoot(), `code-server-${version}`);
}

/**
 * The Node for code-server only, given by path rather than PATH: the extension host is a fork of the
 * server (same Node), but what the extension and the tests spawn by name (`node`, the CLI) keeps
 * finding the system Node the extension supports.
 */
export function codeServerNode(version = codeServerVersion()): string {
	return join(codeServerDir(version), 'node', 'node_modules', `node-linux-${serverNodeArch}`, 'bin', 'node');
}

/** Settings that keep the workbench quiet, offline and deterministic. */
export const defaultSettings: Record<string, unknown> = {
	'workbench.startupEditor': 'none',
	'workbench.tips.enabled': false,
	'workbench.enableExperiments': false,
	'telemetry.telemetryLevel': 'off',
	'update.mode': 'none',
	'extensions.autoCheckUpdates': false,
	'extensions.autoUpdate': false,
	'extensions.ignoreRecommendations': true,
	'security.workspace.trust.enabled': false,
	'git.enabled': false,
	'npm.fetchOnlinePackageInfo': false,
	'typescript.disableAutomaticTypeAcquisition': true,
	'diffEditor.useInlineViewWhenSpaceIsLimited': false,
	'workbench.colorTheme': 'Default Dark Modern',
	// VS Code's own opening of a newly installed extension's walkthrough: off, so no window starts with it.
	'workbench.welcomePage.walkthroughs.openOnInstall': false,
};

export interface CodeServerOptions {
	/** Which installed code-server (default: `codeServerVersion()`). */
	readonly version?: string;
	/** Extra environment for code-server; the extension host inherits it. */
	readonly env?: Record<string, string>;
	/** Merged over `defaultSettings`. */
	readonly settings?: Record<string, unknown>;
	/** A .vsix to install into the (empty) extensions dir before the server starts. */
	readonly vsix?: string;
	/** code-server's stdout/stderr go here (default: <root>/code-server.log, removed with the root). */
	readonly logFile?: string;
}

export interface CodeServer {
	readonly version: string;
	readonly port: number;
	/** `127.0.0.1:PORT`, the authority `vscode-remote://` URIs must use. */
	readonly authority: string;
	/** `http://127.0.0.1:PORT` */
	readonly url: string;
	/** The temp root holding home, user data, extensions and config; `stop()` removes it unless MASSGEN_E2E_KEEP is set. */
	readonly root: string;
	/** The temp HOME given to code-server; give it to the browser too. */
	readonly home: string;
	readonly logFile: string;
	/**
	 * Writes the user settings back to how the server started (a suite that failed mid-way, say on
	 * a timeout, leaves its `massgen.config` and the like behind for the next window otherwise).
	 */
	resetUserSettings(): void;
	/** Kills the whole process tree and waits for it to be gone. Safe to call twice. */
	stop(): Promise<void>;
}

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
	const version = options.version ?? codeServerVersion();
	const bin = join(codeServerDir(version), 'node_modules', '.bin', 'code-server');
	const node = codeServerNode(version);
	for (const file of [bin, node]) {
		if (!existsSync(file)) {
			throw new Error(
				`code-server ${version} not installed (no ${file}); run test/e2e/setupCodeServer.sh ${version}`,
			);
		}
	}

	const root = mkdtempSync(join(tmpdir(), 'massgen-e2e-'));
	const home = join(root, 'home');
	const userDataDir = join(root, 'user-data');
	const extensionsDir = join(root, 'extensions');
	const configFile = join(root, 'code-server.yaml');
	const settingDirs = [join(userDataDir, 'User'), join(userDataDir, 'Machine')];
	for (const dir of [home, ...settingDirs, extensionsDir]) mkdirSync(dir, { recursive: true });
	// The same settings as the server's Machine settings too: the extension host (remote) takes
	// machine-scoped ones (walkthroughs.openOnInstall) from there, never from the User file.
	const settingsFiles = settingDirs.map((dir) => join(dir, 'settings.json'));
	const settingsText = JSON.stringify({ ...defaultSettings, ...options.settings }, null, '\t');
	// Only when changed, and by rename: VS Code watches the file, and a window opening while it is
	// half-written reads the defaults (the walkthrough's openOnInstall: on, which stole a scenario's input).
	const resetUserSettings = () => {
		for (const settingsFile of settingsFiles) {
			if (existsSync(settingsFile) && readFileSync(settingsFile, 'utf8') === settingsText) continue;
			writeFileSync(`${settingsFile}.tmp`, settingsText);
			renameSync(`${settingsFile}.tmp`, settingsFile);
		}
	};
	resetUserSettings();
	const port = await freePort();
	writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
	const logFile = options.logFile ?? join(root, 'code-server.log');
	const log = createWriteStream(logFile);

	const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, EXTENSIONS_GALLERY: '{}', ...options.env };
	// Everything code-server and VS Code write must land in the temp HOME.
	for (const key of [
		'XDG_CONFIG_HOME',
		'XDG_DATA_HOME',
		'XDG_CACHE_HOME',
		'XDG_STATE_HOME',
		'VSCODE_IPC_HOOK_CLI',
	]) {
		delete env[key];
	}
	const dirs = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
	if (options.vsix) {
		execFileSync(node, [bin, ...dirs, '--install-extension', options.vsix], {
			env,
			cwd: root,
			stdio: 'pipe',
		});
	}
	const child = spawn(
		node,
		[
			bin,
			...dirs,
			'--bind-addr',
			`127.0.0.1:${port}`,
			'--auth',
			'none',
			'--disable-telemetry',
			'--disable-update-check',
			'--disable-workspace-trust',
			'--disable-getting-started-override',
			'--ignore-last-opened',
		],
		{ env, cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	child.stdout!.pipe(log, { end: false });
	child.stderr!.pipe(log, { end: false });
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

	let stopped: Promise<void> | undefined;
	const server: CodeServer = {
		version,
		port,
		authority: `127.0.0.1:${port}`,
		url: `http://127.0.0.1:${port}`,
		root,
		home,
		logFile,
		resetUserSettings,
		stop: () =>
			(stopped ??= stopTree(child, exited).finally(() => {
				log.end();
				if (!process.env.MASSGEN_E2E_KEEP) rmSync(root, { recursive: true, force: true });
			})),
	};

	try {
		await waitHealthy(server.url, exited, logFile);
	} catch (error) {
		await server.stop();
		throw error;
	}
	return server;
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address();
			probe.close(() =>
				typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
			);
		});
	});
}

async function waitHealthy(url: string, exited: Promise<number | null>, logFile: string): Promise<void> {
	let exitCode: number | null | undefined;
	void exited.then((code) => (exitCode = code));
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		if (exitCode !== undefined) {
			throw new Error(`code-server exited with ${exitCode} before it was ready; see ${logFile}`);
		}
		try {
			const response = await fetch(`${url}/healthz`);
			if (response.ok) return;
		} catch {
			// not listening yet
		}
		await sleep(100);
	}
	throw new Error(`code-server did not answer ${url}/healthz within 30 s; see ${logFile}`);
}

/** Descendants of `pid` (including itself), read from /proc. */
function processTree(pid: number): number[] {
	const children = new Map<number, number[]>();
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			// The command name may contain spaces and parentheses; fields after the last ')' are fixed.
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
		} catch {
			// exited meanwhile
		}
	}
	const tree: number[] = [];
	const queue = [pid];
	while (queue.length) {
		const next = queue.shift()!;
		tree.push(next);
		queue.push(...(children.get(next) ?? []));
	}
	return tree;
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		// A zombie still answers signal 0; treat it as gone.
		return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
}

function signal(pid: number, sig: NodeJS.Signals): void {
	try {
		process.kill(pid, sig);
	} catch {
		// already gone
	}
}

async function stopTree(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
	const pid = child.pid;
	if (pid === undefined) return;
	const tree = processTree(pid);
	// The wrapper was spawned detached, so it leads its own process group; signal the group and
	// every known descendant (in case one started its own group).
	signal(-pid, 'SIGTERM');
	for (const p of tree) signal(p, 'SIGTERM');
	const deadline = Date.now() + 10_000;
	while (Date.now() < deadline && tree.some(alive)) await sleep(100);
	if (tree.some(alive)) {
		signal(-pid, 'SIGKILL');
		for (const p of tree) signal(p, 'SIGKILL');
		while (tree.some(alive)) await sleep(100);
	}
	await exited;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
