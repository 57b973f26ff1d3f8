import { describe, expect, it } from 'vitest';
import { isPlanDocumentPath, planDocumentRun } from '../../../../src/vscode/plans/planDocumentRun';

const front = (...fields: string[]) =>
	['---', ...fields, '---', '', '# A plan', '', '- [ ] **Step** · 2 of 2'].join('\n');

describe('planDocumentRun: the planning run a plan document names', () => {
	it('reads run: from a plan’s front matter (quoted or not, CRLF too)', () => {
		expect(
			planDocumentRun(front('massgen: plan', 'id: 20261203-150102-ab12', 'run: 20261203-150102-ab12')),
		).toBe('20261203-150102-ab12');
		expect(planDocumentRun(front('massgen: plan', "run: '20261203-150102-ab12'"))).toBe(
			'20261203-150102-ab12',
		);
		expect(planDocumentRun(front('massgen: plan', 'run: 20261203-150102-ab12').replace(/\n/g, '\r\n'))).toBe(
			'20261203-150102-ab12',
		);
	});

	it('a document that is not a plan’s, has no front matter or no closing line, names none', () => {
		expect(planDocumentRun(front('massgen: notes', 'run: 20261203-150102-ab12'))).toBeUndefined();
		expect(planDocumentRun('# Just notes\nrun: 20261203-150102-ab12\n')).toBeUndefined();
		expect(planDocumentRun('---\nmassgen: plan\nrun: 20261203-150102-ab12\n')).toBeUndefined();
		expect(planDocumentRun(front('massgen: plan'))).toBeUndefined();
	});

	it('a run id that would leave .massgen/runs/ is refused (the document is the workspace’s)', () => {
		for (const run of ['../../etc', '..', '/etc/passwd', 'a/b', 'a\\b', '.hidden', '']) {
			expect(planDocumentRun(front('massgen: plan', `run: ${run}`)), run).toBeUndefined();
		}
	});
});

describe('isPlanDocumentPath', () => {
	it('matches .massgen/plans/<name>.md only', () => {
		expect(isPlanDocumentPath('/w/.massgen/plans/20261203-150102-ab12.md')).toBe(true);
		expect(isPlanDocumentPath('C:\\w\\.massgen\\plans\\x.md')).toBe(true);
		expect(isPlanDocumentPath('/w/.massgen/plans/sub/x.md')).toBe(false);
		expect(isPlanDocumentPath('/w/.massgen/runs/x.md')).toBe(false);
		expect(isPlanDocumentPath('/w/plans/x.md')).toBe(false);
		expect(isPlanDocumentPath('/w/.massgen/plans/x.txt')).toBe(false);
	});
});
