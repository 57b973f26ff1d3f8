import { describe, expect, it } from 'vitest';
import type { MergedFinding } from '../../../../src/core/codeReview/agreement.js';
import { reviewSarif } from '../../../../src/cli/review/reviewSarif.js';

const finding = (path: string | undefined): MergedFinding => ({
	...(path === undefined ? {} : { path }),
	line: 3,
	endLine: 4,
	severity: 'medium',
	title: 'Title',
	message: 'Why.',
	agents: ['a', 'b'],
	reasons: [],
	inWinner: true,
});

const locations = (path: string | undefined) =>
	reviewSarif({
		outcome: { agreed: [finding(path)], single: [], of: 2, highestAgreed: 'medium' },
		workspace: '/work/project',
		source: 'staged',
		runId: null,
		toolVersion: '0.0.0',
	}).runs[0]!.results![0]!;

describe('SARIF locations of a review', () => {
	it('are relative to SRCROOT, each path segment URI-encoded', () => {
		expect(locations('src/a b#1.ts').locations).toEqual([
			{
				physicalLocation: {
					artifactLocation: { uri: 'src/a%20b%231.ts', uriBaseId: 'SRCROOT' },
					region: { startLine: 3, endLine: 4 },
				},
			},
		]);
		expect(locations('./src/../src/x.ts').locations![0]!.physicalLocation!.artifactLocation!.uri).toBe(
			'src/x.ts',
		);
	});

	it('a path a model wrote that is absolute, leaves the workspace or is none keeps no location, only its words', () => {
		for (const path of ['/etc/passwd', '../outside.ts', 'src/../../x.ts', '..', 'C:\\x.ts', undefined]) {
			const result = locations(path);
			expect(result.locations, String(path)).toBeUndefined();
			expect(result.properties?.path).toBe(path);
		}
	});
});
