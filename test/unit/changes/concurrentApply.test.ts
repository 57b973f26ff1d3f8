/**
 * Two applies of two teams' change sets to one workspace, started together, many rounds, on the
 * real file system with the real lock: edits four lines apart always end merged (the second apply
 * plans against what the first wrote), edits of one line always end with one team's whole version
 * and the other's clean conflict; a reader polling the file meanwhile only ever sees whole versions.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyChangeSet, type ApplySetResult } from '../../../src/core/changes/applyChangeSet.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { makeWorkspaceDir } from '../../fakes/team.js';

// Long lines, so a write takes long enough for the reader to land inside it.
const lines = Array.from({ length: 10 }, (_, i) => `const line${i + 1} = '${'x'.repeat(20_000)}';\n`);
const base = lines.join('');
const withLine = (n: number, text: string, from = base) => {
	const next = from.split(/(?<=\n)/);
	next[n - 1] = `${text}\n`;
	return next.join('');
};

function change(content: string): FileChange[] {
	return [{ path: 'src/app.js', kind: 'modify', baseHash: sha256(base), base, content }];
}

const lockDir = mkdtempSync(join(tmpdir(), 'massgen-locks-'));

async function race(a: string, b: string) {
	const root = makeWorkspaceDir({ 'src/app.js': base });
	const file = join(root, 'src/app.js');
	const seen = new Set<string>();
	let done = false;
	const reader = (async () => {
		while (!done) seen.add(await readFile(file, 'utf8'));
	})();
	const apply = (content: string, team: string) =>
		applyChangeSet(root, team, change(content), { lock: { tool: team, dir: lockDir } });
	const results = await Promise.all([apply(a, 'A'), apply(b, 'B')]);
	done = true;
	await reader;
	return { results, final: readFileSync(file, 'utf8'), seen };
}

const wrote = (result: ApplySetResult) => result.applied.length === 1 && result.conflicts.length === 0;

describe('concurrent applies to one workspace', () => {
	it('edits four lines apart (line 3 and line 7) always end merged, in 25 rounds', async () => {
		const a = withLine(3, "const line3 = 'team A';");
		const b = withLine(7, "const line7 = 'team B';");
		const both = withLine(7, "const line7 = 'team B';", a);
		for (let round = 0; round < 25; round++) {
			const { results, final, seen } = await race(a, b);
			console.log(
				'ROUND',
				JSON.stringify(results),
				final === both,
				final === a,
				final === b,
				final.length,
				[...seen].map((t) => [base, a, b, both].indexOf(t) + ':' + t.length).join(' '),
			);
			expect(final).toBe(both);
			expect(results.every(wrote)).toBe(true);
			// Exactly one of them found the other's edit on disk and merged with it.
			expect(results.map((result) => result.merged.length).sort()).toEqual([0, 1]);
			expect([...seen].every((text) => [base, a, b, both].includes(text))).toBe(true);
		}
	});

	it('edits of the same line always end with one whole version and a clean conflict for the other, in 25 rounds', async () => {
		const a = withLine(3, "const line3 = 'team A';");
		const b = withLine(3, "const line3 = 'team B, a longer line than A';");
		for (let round = 0; round < 25; round++) {
			const { results, final, seen } = await race(a, b);
			const winner = results.findIndex(wrote);
			expect(winner).toBeGreaterThanOrEqual(0);
			expect(final).toBe([a, b][winner]);
			const loser = results[1 - winner]!;
			expect(loser.applied).toEqual([]);
			expect(loser.conflicts).toEqual([
				{ path: 'src/app.js', reason: 'you changed it since the team read it, and the changes overlap' },
			]);
			expect([...seen].every((text) => [base, a, b].includes(text))).toBe(true);
		}
	});

	it('a user file saved between two applies is merged by the second, not overwritten', async () => {
		const root = makeWorkspaceDir({ 'src/app.js': base });
		const a = withLine(3, "const line3 = 'team A';");
		await applyChangeSet(root, 'A', change(a), { lock: { tool: 'A', dir: lockDir } });
		writeFileSync(join(root, 'src/app.js'), withLine(10, '// the user', a));
		const b = withLine(7, "const line7 = 'team B';");
		const result = await applyChangeSet(root, 'B', change(b), { lock: { tool: 'B', dir: lockDir } });
		expect(result.merged).toEqual(['src/app.js']);
		expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe(
			withLine(10, '// the user', withLine(7, "const line7 = 'team B';", a)),
		);
	});
});
