import { version } from '../../package.json';
import { RunsDirError } from '../core/runStore/runsDirGuard.js';
import { seedRedactor } from '../core/secrets/seedRedactor.js';
import { parseCliArgs } from './args.js';
import { usage } from './cliUsage.js';
import { UsageError } from './usageError.js';
import { terminalSafe } from './display/terminalStream.js';
import { redactedIo } from './redactedIo.js';

// Every command writes through these: on a terminal no control sequence gets through (terminalStream.ts).
const stdout = terminalSafe(process.stdout);
const stderr = terminalSafe(process.stderr);

/**
 * The `massgen` command (after `main.ts`). User errors print a message and an exit code, never a
 * stack trace. Each command's module is imported when that command runs: in the bundle the other
 * commands' modules stay unevaluated (`massgen runs` starts no provider code).
 */
export async function runCli(argv: readonly string[]): Promise<number> {
	const controller = new AbortController();
	const stop = () => {
		if (controller.signal.aborted) process.exit(4);
		stderr.write('\nmassgen: cancelling (press Ctrl-C again to quit at once)\n');
		controller.abort();
	};
	try {
		const command = parseCliArgs(argv, process.cwd());
		// The chat stops a run on Ctrl-C and goes on; it handles its signals itself.
		if (command.kind !== 'chat') {
			process.on('SIGINT', stop);
			process.on('SIGTERM', stop);
		}
		switch (command.kind) {
			case 'version':
				stdout.write(`${version}\n`);
				return 0;
			case 'help':
				stdout.write(`${usage}\n`);
				return 0;
			case 'validate':
				return await (
					await import('./validateCommand.js')
				).validateCommand(command.file, process.env, stderr);
			case 'revert':
				return await (await import('./revertCommand.js')).revertCommand(command, stderr, controller.signal);
			case 'mcp':
				return await (
					await import('./mcp/mcpCommand.js')
				).mcpCommand(command, {
					stderr,
					env: process.env,
					signal: controller.signal,
				});
			case 'trust':
				return await (await import('./trustCommand.js')).trustCommand(command, { stderr, env: process.env });
			case 'init':
				return await (
					await import('./initCommand.js')
				).initCommand(command, {
					stdout,
					stderr,
					env: process.env,
					stdin: process.stdin,
					interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
				});
			case 'chat':
				return await (
					await import('./chatCommand.js')
				).chatCommand(command, {
					stdout,
					stderr,
					env: process.env,
					stdin: process.stdin,
				});
			case 'runs':
			case 'show': {
				// Run directories are redacted as written; this masks the environment's secrets on top.
				const redactor = seedRedactor({ env: process.env });
				const io = redactedIo(
					{ stdout, stderr, env: process.env, signal: controller.signal },
					() => redactor,
				);
				return command.kind === 'runs'
					? await (await import('./runsCommand.js')).runsCommand(command, io)
					: await (await import('./showCommand.js')).showCommand(command, io);
			}
			case 'stats': {
				// Names come from run directories (redacted as written); this masks the environment's secrets on top.
				const redactor = seedRedactor({ env: process.env });
				const io = redactedIo(
					{ stdout, stderr, env: process.env, signal: controller.signal },
					() => redactor,
				);
				return await (await import('./stats/statsCommand.js')).statsCommand(command, io);
			}
			case 'review': {
				// The run's own texts are read back redacted; this masks the environment's secrets on top.
				const redactor = seedRedactor({ env: process.env });
				const io = redactedIo(
					{ stdout, stderr, env: process.env, signal: controller.signal },
					() => redactor,
				);
				return await (await import('./review/reviewCommand.js')).reviewCommand(command, io);
			}
			case 'plan':
				return await (
					await import('./plan/planCommand.js')
				).planCommand(command, {
					stdout,
					stderr,
					env: process.env,
					signal: controller.signal,
					stdin: process.stdin,
				});
			case 'serve': {
				// What it prints passes a redactor that knows the environment's secrets; each run's answer its own.
				const redactor = seedRedactor({ env: process.env });
				const io = redactedIo(
					{ stdout, stderr, env: process.env, signal: controller.signal },
					() => redactor,
				);
				return await (await import('./serve/serveCommand.js')).serveCommand(command, io);
			}
			case 'run':
				return await (
					await import('./runCommand.js')
				).runCommand(command, {
					stdout,
					stderr,
					env: process.env,
					signal: controller.signal,
					stdin: process.stdin,
				});
		}
	} catch (error) {
		if (RunsDirError.is(error)) {
			stderr.write(`massgen: ${error.message}\n`);
			return 1;
		}
		if (UsageError.is(error)) {
			stderr.write(`massgen: ${error.message}\n\n${usage}\n`);
			return 1;
		}
		// The run's own redactor is gone with it: mask what the environment and URLs reveal.
		const redactor = seedRedactor({ env: process.env });
		stderr.write(redactor.text(`massgen: internal error: ${(error as Error).message}\n`));
		return 2;
	}
}
