/**
 * The Runs view's fingerprint of the runs folders (`runsListing`, taken every 3 s): it reads only
 * run folders inside the workspace, as every other reader of `.massgen/runs` does
 * (`assertRunsDirInside`). A repository whose `.massgen` (or `.massgen/runs`) is a link would
 * otherwise have the view poll a folder of its choosing outside the workspace.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsListing } from '../../../src/core/runStore/runsListing.js';
import { makeTree } from '../../support/tempTree.js';

const runId = '20261203-090000-abcd';

describe('runsListing', () => {
	it('names each run folder and whether it has a result (control)', async () => {
		const root = await makeTree({ [`.massgen/runs/${runId}/result.json`]: '{}' });
		await mkdir(join(root, '.massgen', 'runs', '20261203-090001-abcd'));
		expect(await runsListing([root])).toBe(`${root}\n${runId}+\n20261203-090001-abcd`);
	});

	it.each(['.massgen', '.massgen/runs'])(
		'reads nothing through %s as a link out of the workspace',
		async (name) => {
			const outside = await makeTree({
				[`runs/${runId}/result.json`]: '{}',
				[`${runId}/result.json`]: '{}',
			});
			const root = await makeTree({ 'README.md': 'hi\n' });
			if (name === '.massgen/runs') await mkdir(join(root, '.massgen'));
			await symlink(name === '.massgen' ? outside : join(outside, 'runs'), join(root, name));
			expect(await runsListing([root])).toBe(`${root}\n`);
		},
	);
});
