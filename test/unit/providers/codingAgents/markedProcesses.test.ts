import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { killMarkedProcesses } from '../../../../src/core/providers/codingAgents/markedProcesses.js';
import { waitFor } from '../../../support/waitFor.js';

/** Live (not zombie) processes whose environment holds exactly this marker. */
function marked(label: string): number[] {
	const found: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
			const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
			if (environ.includes(`MASSGEN_CODING_AGENT=${label}`)) found.push(Number(entry));
		} catch {
			// Ended while we read it.
		}
	}
	return found;
}

/**
 * Starts a shell with a background child in a session of its own, as the orphaned half of a
 * bwrap is: outside any process tree or group we hold. Resolves once both carry the marker.
 */
async function orphanLike(label: string): Promise<void> {
	const child = spawn('/bin/sh', ['-c', 'sleep 600 & exec sleep 601'], {
		env: { PATH: process.env.PATH, MASSGEN_CODING_AGENT: label },
		detached: true,
		stdio: 'ignore',
	});
	child.unref();
	await waitFor(() => marked(label).length === 2, `both processes marked ${label} running`);
}

describe.runIf(process.platform === 'linux')('killMarkedProcesses', () => {
	const labels: string[] = [];
	afterEach(() => {
		for (const label of labels.splice(0)) killMarkedProcesses(label);
	});

	it("ends every process with the agent's marker, also one no tree of ours holds, and no other agent's", async () => {
		const ours = `codex-${randomUUID().slice(0, 8)}`;
		const other = `${ours}x`;
		labels.push(ours, other);
		await orphanLike(ours);
		await orphanLike(other);
		const before = marked(ours);

		expect(killMarkedProcesses(ours).sort()).toEqual(before.sort());
		await waitFor(() => marked(ours).length === 0, `no process marked ${ours} left`);
		// A label that merely starts with ours is another agent's: untouched.
		expect(marked(other)).toHaveLength(2);
	});

	it('finds nothing to end for a label no process carries', () => {
		expect(killMarkedProcesses(`codex-${randomUUID().slice(0, 8)}`)).toEqual([]);
	});
});
