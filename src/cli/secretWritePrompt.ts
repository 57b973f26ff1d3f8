/**
 * Before `--apply` writes files that would get a secret value the run knows (`secretValueFiles`),
 * or files other tools run or obey later (`flaggedChanges`: CI workflows, editor tasks, hooks):
 * on a terminal it asks; `--yes` writes them (the warning stays on stderr); with no terminal and
 * no `--yes` nothing is written. A key in a file is one `git add` from a public repository, and a
 * script that really wants it says `--yes`. Likewise a planted workflow runs with the repository's
 * secrets after the next push, and a script that applies one expects it (`--yes`); a script without
 * `--yes` fails (exit 2) rather than getting half a change set.
 */
import { createInterface } from 'node:readline';

/** Whether to write the marked files; `paths` were already named on stderr. */
export type SecretWriteConsent = (paths: readonly string[]) => Promise<boolean>;

export function secretWriteConsent(options: {
	readonly output: NodeJS.WritableStream;
	/** Where the answer is read; undefined: no terminal. */
	readonly input: NodeJS.ReadableStream | undefined;
	readonly yes: boolean;
}): SecretWriteConsent {
	const { output, input, yes } = options;
	return async () => {
		if (yes) return true;
		if (!input) {
			output.write('massgen: not written without a terminal to ask on (--yes writes them anyway)\n');
			return false;
		}
		const readline = createInterface({ input, output, terminal: false });
		try {
			const answer = await new Promise<string>((resolve) => {
				readline.question('Write them anyway? [y/N] ', resolve);
				readline.once('close', () => resolve(''));
			});
			return /^y(es)?$/i.test(answer.trim());
		} finally {
			readline.close();
		}
	};
}
