/**
 * Ends every process that carries an agent's `MASSGEN_CODING_AGENT` marker (Linux, `/proc`).
 *
 * The Codex SDK ends a turn by signalling the one process it spawned (our launcher, which became
 * bwrap). Signalled in bwrap's first moments, the outer bwrap dies before its sandboxed child has
 * set `--die-with-parent`; that child then waits forever for a go-ahead that never comes
 * (bubblewrap 0.8.0: blocked reading its setup eventfd), holding the CLI's stdio open, so our
 * process never exits. Every process of the agent inherits the marker: killing them all by it
 * reaches such an orphan, which no process tree or group of ours holds any more.
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Sends SIGKILL to every live process whose environment holds `MASSGEN_CODING_AGENT=<label>`,
 * pass after pass until one finds none: a parent killed in one pass may have started a child
 * after that pass listed `/proc`. Returns the pids it signalled.
 */
export function killMarkedProcesses(label: string): number[] {
	if (process.platform !== 'linux') return [];
	const marker = `MASSGEN_CODING_AGENT=${label}`;
	const killed: number[] = [];
	for (let pass = 0; pass < maxPasses; pass++) {
		const found = markedPids(marker);
		if (found.length === 0) break;
		for (const pid of found) {
			try {
				process.kill(pid, 'SIGKILL');
				if (!killed.includes(pid)) killed.push(pid);
			} catch {
				// Already gone.
			}
		}
	}
	return killed;
}

/** A killed process reads as marked until it is gone (then a zombie's environment is empty). */
const maxPasses = 50;

function markedPids(marker: string): number[] {
	let entries: string[];
	try {
		entries = readdirSync('/proc');
	} catch {
		return [];
	}
	const found: number[] = [];
	for (const entry of entries) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
			if (environ.includes(marker)) found.push(Number(entry));
		} catch {
			// Ended while we looked, or not ours to read.
		}
	}
	return found;
}
