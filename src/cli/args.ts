import { parseArgs } from 'node:util';

export type CliCommand =
	| {
			readonly kind: 'run';
			readonly question: string;
			readonly config?: string;
			readonly workspace: string;
			readonly json: boolean;
			readonly timeoutSeconds?: number;
			readonly apply: boolean;
			/** How tool approvals are answered: on the terminal, or automatically (`--yes`, `--deny-all`). */
			readonly approvals?: 'ask' | 'yes' | 'deny-all';
			/** `--unsandboxed-commands`: where no OS sandbox can start, run commands without one. */
			readonly unsandboxedCommands?: boolean;
	  }
	| { readonly kind: 'validate'; readonly file: string }
	| { readonly kind: 'version' }
	| { readonly kind: 'help' };

export class UsageError extends Error {}

export const usage = `Usage:
  massgen run [--config FILE] [--workspace DIR] [--json] [--timeout SECONDS] [--apply] [--yes | --deny-all] [--unsandboxed-commands] "QUESTION"
  massgen validate FILE
  massgen --version

run       Ask the team. The final answer goes to stdout, progress to stderr.
          --config     team config (default: <workspace>/.massgen/config.yaml, else the default team)
          --workspace  folder the agents read (default: current directory); never modified without --apply
          --json       print RunEvents as NDJSON on stdout instead of the answer
          --timeout    coordination timeout in seconds
          --apply      write the winner's changes to the workspace after the run
          --yes        allow every tool call that needs approval (hardline and deny rules still apply)
          --deny-all   deny every tool call that needs approval, without asking
          (default: ask on the terminal; with no terminal, deny)
          --unsandboxed-commands  where no OS sandbox (bubblewrap, sandbox-exec) can start, run
                       commands without one: they can read and change anything your user can
                       (default: run_command is off there)
validate  Check a config file; prints file:line:col: messages.
Exit codes: 0 completed, 1 config or usage error, 2 run failed, 3 timed out, 4 cancelled.`;

/** Parses argv (without node and script). Throws UsageError with a message for the user. */
export function parseCliArgs(argv: readonly string[], cwd: string): CliCommand {
	let parsed;
	try {
		parsed = parseArgs({
			args: [...argv],
			allowPositionals: true,
			strict: true,
			options: {
				config: { type: 'string' },
				workspace: { type: 'string' },
				json: { type: 'boolean', default: false },
				timeout: { type: 'string' },
				apply: { type: 'boolean', default: false },
				yes: { type: 'boolean', short: 'y', default: false },
				'deny-all': { type: 'boolean', default: false },
				'unsandboxed-commands': { type: 'boolean', default: false },
				version: { type: 'boolean', default: false },
				help: { type: 'boolean', short: 'h', default: false },
			},
		});
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	const { values, positionals } = parsed;
	if (values.version) return { kind: 'version' };
	if (values.help || positionals.length === 0) return { kind: 'help' };
	const [command, ...rest] = positionals;
	if (command === 'validate') {
		if (rest.length !== 1) throw new UsageError('validate takes exactly one FILE');
		return { kind: 'validate', file: rest[0]! };
	}
	if (command !== 'run') throw new UsageError(`unknown command '${command}'`);
	const question = rest.join(' ').trim();
	if (!question) throw new UsageError('run needs a QUESTION');
	let timeoutSeconds: number | undefined;
	if (values.timeout !== undefined) {
		timeoutSeconds = Number(values.timeout);
		if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
			throw new UsageError(`--timeout must be a positive number of seconds, not '${values.timeout}'`);
		}
	}
	if (values.yes && values['deny-all']) throw new UsageError('use either --yes or --deny-all, not both');
	return {
		kind: 'run',
		question,
		config: values.config,
		workspace: values.workspace ?? cwd,
		json: values.json ?? false,
		timeoutSeconds,
		apply: values.apply ?? false,
		approvals: values.yes ? 'yes' : values['deny-all'] ? 'deny-all' : 'ask',
		...(values['unsandboxed-commands'] ? { unsandboxedCommands: true } : {}),
	};
}
