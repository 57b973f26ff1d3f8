/**
 * `massgen trust [--workspace DIR] [--config FILE]`: trusts what the folder's own config would run
 * and where it would send keys (the same listing `run` asks about), for scripts and CI and for
 * users who read the config first. Prints exactly what it trusts. `--revoke` forgets the folder;
 * `--list` prints every trusted folder.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatIssue, hasErrors } from '../core/config/configIssue.js';
import { teamTrustListing } from '../core/run/teamTrustListing.js';
import { loadTeam } from '../core/team/loadTeam.js';
import { visibleText } from '../core/trust/visibleText.js';
import type { TrustArgs } from './args.js';
import { cliKeyHost, cliKeys, cliNamedConfig, missingConfig } from './cliHost.js';
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
	// The team a run here would use (`loadTeam`, as `prepareRun` calls it), listed as the run lists it.
	const keys = await cliKeys(root, io.env);
	const team = await loadTeam({
		workspaceRoot: root,
		shippedConfigsDir: shippedConfigsDir(),
		trusted: cliKeyHost(io.env).workspaceTrusted,
		named: cliNamedConfig(command.config),
		keys,
	});
	if (!team.ok) return fail(io, missingConfig(team.file));
	const { choice, loaded, resolution } = team;
	for (const issue of loaded.issues) say(formatIssue(issue));
	if (!loaded.config || hasErrors(loaded.issues)) return 1;
	// A team a run would refuse (a key not set yet) is listed as its file has it, as the run will once it can.
	const listed = resolution.ok
		? resolution.team
		: { ...choice, config: loaded.config, source: loaded.source };
	const listing = await teamTrustListing(root, listed, keys);
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
