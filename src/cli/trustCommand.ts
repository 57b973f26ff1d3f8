/**
 * `massgen trust [--workspace DIR] [--config FILE]`: trusts what the folder's own config would run
 * and where it would send keys (the same listing `run` asks about), for scripts and CI and for
 * users who read the config first. Prints exactly what it trusts. `--revoke` forgets the folder;
 * `--list` prints every trusted folder.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatIssue, hasErrors } from '../core/config/configIssue.js';
import { loadConfigFile } from '../core/config/loadConfig.js';
import { runKeys } from '../core/run/runKeys.js';
import { chooseConfigFile } from '../core/team/chooseConfigFile.js';
import { visibleText } from '../core/trust/visibleText.js';
import { trustListing } from '../core/trust/workspaceTrust.js';
import type { TrustArgs } from './args.js';
import { shippedConfigsDir } from './shippedFiles.js';
import { trustLines } from './trustPrompt.js';
import { defaultTrustStorePath, FileTrustStore } from './trustStore.js';

export async function trustCommand(
	command: TrustArgs,
	io: { readonly stderr: NodeJS.WritableStream; readonly env: NodeJS.ProcessEnv },
): Promise<number> {
	const store = new FileTrustStore(defaultTrustStorePath(io.env));
	const say = (line: string) => io.stderr.write(`${line}\n`);
	if (command.action === 'list') {
		const all = Object.entries(store.list());
		if (all.length === 0) say('massgen: no folder is trusted');
		for (const [folder, entry] of all) {
			say(`${visibleText(folder)} (trusted ${entry.trustedAt}):`);
			for (const line of entry.items) say(line);
		}
		return 0;
	}
	const root = resolve(command.workspace);
	if (!(await isDirectory(root))) return fail(io, `workspace '${command.workspace}' is not a folder`);
	if (command.action === 'revoke') {
		const removed = store.remove(root);
		say(
			removed
				? `massgen: ${visibleText(root)} is no longer trusted`
				: `massgen: ${visibleText(root)} was not trusted`,
		);
		return 0;
	}
	const choice = await chooseConfigFile(root, shippedConfigsDir(), command.config);
	const loaded = await loadConfigFile(choice.file);
	for (const issue of loaded.issues) say(formatIssue(issue));
	if (!loaded.config || hasErrors(loaded.issues)) return 1;
	const source = loaded.source;
	const listing = trustListing({
		workspaceRoot: root,
		config: loaded.config,
		file: choice.file,
		// The CLI trusts the folder it runs in (its run host's `workspaceTrusted`): `.env` counts.
		keys: await runKeys(root, { env: io.env, workspaceTrusted: true }),
		...(source ? { locate: (path) => source.locate(path, 'value') } : {}),
	});
	if (listing.items.length === 0) {
		say(
			`massgen: nothing in ${visibleText(root)} needs trust (${visibleText(choice.file)} starts no program and sends no key elsewhere)`,
		);
		return 0;
	}
	const lines = trustLines(listing.items);
	store.set(root, { hash: listing.hash, trustedAt: new Date().toISOString(), items: lines });
	say(`massgen: trusted ${visibleText(root)}: runs in it may now`);
	for (const line of lines) say(line);
	say("massgen: a change to these is asked again; 'massgen trust --revoke' forgets the folder");
	return 0;
}

function fail(io: { readonly stderr: NodeJS.WritableStream }, message: string): number {
	io.stderr.write(`massgen: ${message}\n`);
	return 1;
}

async function isDirectory(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isDirectory();
	} catch {
		return false;
	}
}
