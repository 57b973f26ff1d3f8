/**
 * `run_command(command, cwd?)`: runs a shell command line in the agent's scratch copy of the
 * workspace (`ScratchSpace`: a copy or an overlay), after the permission engine (and maybe the user) let it,
 * behind the run's OS sandbox (`core/exec/sandbox`) with an allow-listed environment.
 */
import type { ChildProcess } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { CommandSandbox } from '../exec/sandbox/commandSandbox.js';
import { commandEnvironment } from '../exec/sandbox/commandEnvironment.js';
import { sandboxRequest } from '../exec/sandbox/sandboxRequest.js';
import { formatCommandResult, runShellCommand } from '../exec/commandRunner.js';
import type { ScratchSpace } from '../exec/scratchSpace.js';
import type { ExtraTool, ExtraToolContext } from './guardedToolbox.js';
import type { ToolOutcome } from '../providers/spec/toolOutcome.js';

export const runCommandName = 'run_command';

const argsSchema = z.object({
	command: z.string().min(1).describe('Run by sh (cmd on Windows).'),
	cwd: z.string().optional().describe('Relative to the workspace root; default: the root.'),
});

export interface RunCommandToolOptions {
	readonly timeoutMs: number;
	readonly maxOutputBytes: number;
	/** The parent's environment: only allow-listed names reach commands (`commandEnvironment`). */
	readonly parentEnv: Readonly<Record<string, string | undefined>>;
	/** The wall every command runs behind (`unsandboxed` only when the user opted in). */
	readonly sandbox: CommandSandbox;
	/** Whether commands may use the network (`permissions.command_network`). */
	readonly network: boolean;
	readonly workspaceRoot: string;
	/** The agent's scratch copy (one per agent per run). */
	readonly scratch: (agentId: string) => ScratchSpace;
	/** The scratches are overlays: dependency folders can be changed there too (copy-on-write), not read-only. */
	readonly copyOnWrite?: boolean;
	/** Called with every child, so the run can end them all on close. */
	readonly onSpawn?: (child: ChildProcess) => void;
}

const { $schema: _ignored, ...parameters } = z.toJSONSchema(argsSchema, { io: 'input' });

export function runCommandTool(options: RunCommandToolOptions): ExtraTool {
	const parse = (args: Record<string, unknown>) => {
		const cleaned = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
		return argsSchema.safeParse(cleaned);
	};
	const running = new Map<string, Promise<unknown>>();
	return {
		definition: {
			name: runCommandName,
			description:
				'Run a shell command (build, tests, linters…) in a scratch copy of the workspace with your edits, ' +
				'without .git/ or secrets files. Returns the exit code and the combined output (long output cut in ' +
				`the middle); times out after ${Math.round(options.timeoutMs / 1000)} s. Changes it makes stay in ` +
				'the copy: propose changes with write_file/edit_file' +
				(options.sandbox.mode === 'none'
					? ''
					: `. Sandboxed: only the copy is writable (${options.copyOnWrite ? 'changes to node_modules and the like stay in the copy too' : 'node_modules and the like are read-only'})${options.network ? '' : ', no network'}`) +
				". Risky commands wait for the user's approval.",
			parameters,
		},
		// In the sandbox a command changes only its scratch copy, unless it may use the network.
		actsOutside: () => options.network,
		unavailable: () => null,
		async describe(args, context) {
			const parsed = parse(args);
			if (!parsed.success) {
				return {
					error: parsed.error.issues
						.map((issue) => `'${issue.path.join('.') || 'arguments'}': ${issue.message}`)
						.join('; '),
				};
			}
			const cwd = await resolveCwd(parsed.data.cwd, context, options);
			if ('error' in cwd) return cwd;
			return {
				action: 'command',
				target: parsed.data.command,
				args: { command: parsed.data.command, cwd: cwd.path },
				cwd: cwd.path,
			};
		},
		async execute(args, context) {
			const parsed = parse(args);
			if (!parsed.success) return { text: `${runCommandName}: invalid arguments`, isError: true };
			const cwd = await resolveCwd(parsed.data.cwd, context, options);
			if ('error' in cwd) return { text: `${runCommandName}: ${cwd.error}`, isError: true };
			// A cancelled call returns before its process is gone: the next one waits, so no command
			// still running can swap a link into the copy while the overlay is written in.
			const current = (running.get(context.agentId) ?? Promise.resolve()).then(() =>
				run(parsed.data.command, cwd.path, context),
			);
			running.set(
				context.agentId,
				current.catch(() => undefined),
			);
			return current;
		},
	};

	async function run(command: string, cwdPath: string, context: ExtraToolContext): Promise<ToolOutcome> {
		const copy = options.scratch(context.agentId);
		let root: string;
		try {
			// The run snapshot too: a command sees the version of each file the read tools show.
			root = await copy.prepare(context.overlay.snapshot().edits, context.overlay.workspace.runSnapshot);
		} catch (error) {
			return {
				text: `${runCommandName}: could not prepare the scratch copy: ${(error as Error).message}`,
				isError: true,
			};
		}
		const folder = join(root, cwdPath);
		if (!(await copy.hasFolder(cwdPath))) {
			return { text: `${runCommandName}: '${cwdPath}' is not a folder in the workspace`, isError: true };
		}
		const home = copy.homeDir!;
		const env = commandEnvironment(options.parentEnv, {
			home,
			tempDir: options.sandbox.tempDir ?? join(home, 'tmp'),
			ceiling: dirname(root),
		});
		const host = {
			workspaceRoot: await realpath(options.workspaceRoot),
			hostHome: options.parentEnv['HOME'],
			tempRoot: tmpdir(),
			path: env['PATH'],
			execPath: process.execPath,
		};
		const request = sandboxRequest(host, {
			scratchDir: root,
			cwd: folder,
			homeDir: home,
			dependencyMounts: copy.dependencyMounts,
			network: options.network,
			overlay: copy.overlayLayers,
		});
		const result = await runShellCommand({
			command,
			cwd: folder,
			env,
			wrap: (argv) => options.sandbox.wrap(argv, request),
			timeoutMs: options.timeoutMs,
			maxOutputBytes: options.maxOutputBytes,
			signal: context.signal,
			onSpawn: options.onSpawn,
		});
		const withheld = await copy.afterCommand();
		if (withheld !== null) return { text: `${runCommandName}: ${withheld}`, isError: true };
		const failed = result.error !== undefined || result.timedOut || result.cancelled;
		return { text: formatCommandResult(result, options.timeoutMs), isError: failed };
	}
}

/** The workspace-relative folder (`.` = root); refused outside the workspace, in .git/ etc., or in a linked dependency folder. */
async function resolveCwd(
	given: string | undefined,
	context: ExtraToolContext,
	options: RunCommandToolOptions,
): Promise<{ path: string } | { error: string }> {
	if (given === undefined || given.trim() === '' || given.trim() === '.') return { path: '.' };
	const resolved = await context.overlay.workspace.resolve(given, 'read');
	if (!resolved.ok) return { error: resolved.reason };
	if (options.scratch(context.agentId).isLinked(resolved.path)) {
		return {
			error: `refused: '${resolved.path}' is a shared dependency folder; run commands from the project folder`,
		};
	}
	return { path: resolved.path };
}
