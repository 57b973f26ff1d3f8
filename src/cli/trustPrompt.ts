/**
 * The CLI's folder-trust step, before a run directory is made: what the workspace's own config
 * would run and where it would send keys (`core/trust`), decided by the store (trusted before,
 * same hash), `--trust-workspace`, or one question on a terminal (remembered). With no terminal
 * and no trust the run is refused with every part named and how to trust.
 */
import { createInterface } from 'node:readline';
import type { TrustItem } from '../core/trust/trustItems.js';
import { visibleText } from '../core/trust/visibleText.js';
import type { TrustListing, WorkspaceTrust } from '../core/trust/workspaceTrust.js';
import type { FileTrustStore } from './trustStore.js';

export interface TrustStepOptions {
	readonly root: string;
	readonly listing: TrustListing;
	readonly store: FileTrustStore;
	/** `--trust-workspace`: trusted for this run, not remembered. */
	readonly flag: boolean;
	/** The terminal to ask on; undefined: no terminal. */
	readonly input: NodeJS.ReadableStream | undefined;
	readonly output: NodeJS.WritableStream;
}

/** How to trust, said in every refusal. */
export const trustHint = "run 'massgen trust' in this folder, or give --trust-workspace";

/** The decision for `runSession`, or null: no run (declined, or refused with no terminal). */
export async function cliWorkspaceTrust(options: TrustStepOptions): Promise<WorkspaceTrust | null> {
	const { listing, output } = options;
	const trusted: WorkspaceTrust = { kind: 'trusted', hash: listing.hash };
	if (listing.items.length === 0) return trusted;
	const stored = options.store.get(options.root);
	if (stored?.hash === listing.hash) return trusted;
	const changed = stored !== undefined;
	const heading = changed
		? "massgen: this folder's config changed since you trusted it; it would now:"
		: "massgen: this folder's own config would run programs or send your keys:";
	output.write(`${heading}\n${trustLines(listing.items).join('\n')}\n`);
	if (options.flag) {
		output.write('massgen: trusted for this run (--trust-workspace)\n');
		return trusted;
	}
	if (!options.input) {
		output.write(`massgen: not started: the folder is not trusted; ${trustHint}\n`);
		return null;
	}
	const yes = await askYesNo(options.input, output, 'Trust this folder and allow these? [y/N] ');
	if (!yes) {
		output.write('massgen: not started (the folder is not trusted)\n');
		return null;
	}
	options.store.set(options.root, {
		hash: listing.hash,
		trustedAt: new Date().toISOString(),
		items: trustLines(listing.items),
	});
	return trusted;
}

/** One line per item, control characters made visible. */
export function trustLines(items: readonly TrustItem[]): string[] {
	return items.map((item) => {
		const at = item.line === undefined ? '' : `:${item.line}:${item.col ?? 1}`;
		return `  ${visibleText(`${item.file}${at}`)}  ${visibleText(item.subject)}: ${visibleText(item.detail)}`;
	});
}

async function askYesNo(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, question: string) {
	const readline = createInterface({ input, output, terminal: false });
	try {
		const answer = await new Promise<string>((resolve) => {
			readline.question(question, resolve);
			readline.once('close', () => resolve(''));
		});
		return /^y(es)?$/i.test(answer.trim());
	} finally {
		readline.close();
	}
}
