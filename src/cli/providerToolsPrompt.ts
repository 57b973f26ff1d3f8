/**
 * The provider-tools decision on the command line: `--provider-tools=allow|deny` decides; `ask` (the
 * default) asks once on the terminal, before the run's first request; with no terminal it denies, and
 * each agent's notice says why and how to choose.
 */
import { createInterface } from 'node:readline';
import type { ProviderToolsMode, ProviderToolsPolicy } from '../core/run/providerToolsDecision.js';

export function cliProviderToolsPolicy(
	mode: ProviderToolsMode,
	streams: { readonly output: NodeJS.WritableStream; readonly input: NodeJS.ReadableStream | undefined },
): ProviderToolsPolicy {
	const source = '--provider-tools';
	const input = streams.input;
	if (mode !== 'ask') return { mode, source };
	if (!input) {
		const unattended = 'there is no terminal to ask on: treated as deny (use --provider-tools=allow or deny)';
		return { mode, source, unattended };
	}
	return {
		mode,
		source,
		ask: async (agents) => {
			const who = agents.map((a) => `${a.agentId} (${a.tools.join(', ')})`).join(', ');
			streams.output.write(
				`massgen: ${who} would use provider-side tools: the provider runs them, so they cannot be approved call by call\n`,
			);
			const readline = createInterface({ input, output: streams.output, terminal: false });
			try {
				const answer = await new Promise<string>((resolve) => {
					readline.question('Allow them for this run? [y/N] ', resolve);
					readline.once('close', () => resolve(''));
				});
				return /^y(es)?$/i.test(answer.trim());
			} finally {
				readline.close();
			}
		},
	};
}
