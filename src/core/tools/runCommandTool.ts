/**
 * `run_command(command, cwd?)`: runs a shell command line in the agent's scratch copy of the
 * workspace (see `commandScratch.ts`), after the permission engine (and maybe the user) let it.
 */
import type { ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { formatCommandResult, runShellCommand } from './commandRunner.js';
import type { ScratchCopy } from './commandScratch.js';
import type { ExtraTool, ExtraToolContext } from './guardedToolbox.js';

export const runCommandName = 'run_command';

const argsSchema = z.object({
	command: z.string().min(1).describe('The shell command line (sh on Linux and macOS, cmd on Windows).'),
	cwd: z.string().optional().describe('Folder to run in, relative to the workspace root; default: the root.'),
});

export interface RunCommandToolOptions {
	readonly timeoutMs: number;
	readonly maxOutputBytes: number;
	/** The environment commands get (already stripped of secrets). */
	readonly env: Readonly<Record<string, string>>;
	/** The agent's scratch copy (one per agent per run). */
	readonly scratch: (agentId: string) => ScratchCopy;
	/** Called with every child, so the run can end them all on close. */
	readonly onSpawn?: (child: ChildProcess) => void;
}

const { $schema: _ignored, ...parameters } = z.toJSONSchema(argsSchema, { io: 'input' });

export function runCommandTool(options: RunCommandToolOptions): ExtraTool {
	const parse = (args: Record<string, unknown>) => {
		const cleaned = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
		return argsSchema.safeParse(cleaned);
	};
	return {
		definition: {
			name: runCommandName,
			description:
				'Run a shell command (build, tests, linters, git status…) in a scratch copy of the workspace that ' +
				'includes your edits so far. Returns the exit code and the combined stdout/stderr (long output is ' +
				`cut in the middle). Times out after ${Math.round(options.timeoutMs / 1000)} s. Files the command ` +
				'changes stay in the scratch copy: use write_file/edit_file for changes you propose. There is no .git/ ' +
				'and no .env* in the copy. Risky commands wait for the user\'s approval and may be denied.',
			parameters,
		},
		unavailable: () => null,
		async describe(args, context) {
			const parsed = parse(args);
			if (!parsed.success) return { error: parsed.error.issues.map((issue) => `'${issue.path.join('.') || 'arguments'}': ${issue.message}`).join('; ') };
			const cwd = await resolveCwd(parsed.data.cwd, context, options);
			if ('error' in cwd) return cwd;
			return { action: 'command', target: parsed.data.command, args: { command: parsed.data.command, cwd: cwd.path }, cwd: cwd.path };
		},
		async execute(args, context) {
			const parsed = parse(args);
			if (!parsed.success) return { text: `${runCommandName}: invalid arguments`, isError: true };
			const cwd = await resolveCwd(parsed.data.cwd, context, options);
			if ('error' in cwd) return { text: `${runCommandName}: ${cwd.error}`, isError: true };
			let root: string;
			try {
				root = await options.scratch(context.agentId).prepare(context.overlay.snapshot().edits);
			} catch (error) {
				return { text: `${runCommandName}: could not prepare the scratch copy: ${(error as Error).message}`, isError: true };
			}
			const folder = join(root, cwd.path);
			if (!(await stat(folder).then((info) => info.isDirectory()).catch(() => false))) {
				return { text: `${runCommandName}: '${cwd.path}' is not a folder in the workspace`, isError: true };
			}
			const result = await runShellCommand({
				command: parsed.data.command,
				cwd: folder,
				env: options.env,
				timeoutMs: options.timeoutMs,
				maxOutputBytes: options.maxOutputBytes,
				signal: context.signal,
				onSpawn: options.onSpawn,
			});
			const failed = result.error !== undefined || result.timedOut || result.cancelled;
			return { text: formatCommandResult(result, options.timeoutMs), isError: failed };
		},
	};
}

/** The workspace-relative folder (`.` = root); refused outside the workspace, in .git/ etc., or in a linked dependency folder. */
async function resolveCwd(given: string | undefined, context: ExtraToolContext, options: RunCommandToolOptions): Promise<{ path: string } | { error: string }> {
	if (given === undefined || given.trim() === '' || given.trim() === '.') return { path: '.' };
	const resolved = await context.overlay.workspace.resolve(given, 'read');
	if (!resolved.ok) return { error: resolved.reason };
	if (options.scratch(context.agentId).isLinked(resolved.path)) return { error: `refused: '${resolved.path}' is a shared dependency folder; run commands from the project folder` };
	return { path: resolved.path };
}

/** Variable names that look like secrets: commands never see them (an agent could print them). */
const secretName = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)/i;

/**
 * The environment for commands: the caller's minus anything secret-looking, made
 * non-interactive (no pagers, no prompts, no colours, `CI=1` so test runners do not watch).
 */
export function commandEnvironment(env: Readonly<Record<string, string | undefined>>, scratchParent?: string): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(env)) {
		if (value !== undefined && !secretName.test(key)) out[key] = value;
	}
	return {
		...out,
		CI: '1',
		PAGER: 'cat',
		GIT_PAGER: 'cat',
		GIT_TERMINAL_PROMPT: '0',
		NO_COLOR: '1',
		FORCE_COLOR: '0',
		TERM: 'dumb',
		...(scratchParent ? { GIT_CEILING_DIRECTORIES: scratchParent } : {}),
	};
}
