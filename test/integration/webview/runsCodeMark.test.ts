/**
 * Files other tools run or obey later in the change review (Chromium, real `webviewHtml` CSP): the
 * host's own `PendingChangeSet` leaves them unticked, the row shows "runs code later" with who runs
 * it in the title, and ticking the file posts `select-hunks` for its change. Control: an ordinary
 * file of the same change set is ticked and unmarked.
 */
import { describe, expect, it } from 'vitest';
import { buildReviewChangeSet } from '../../../src/core/changes/changeSet.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { PendingChangeSet } from '../../../src/vscode/changes/pendingChangeSet.js';
import type { FinishedRun } from '../../../src/vscode/run/runTypes.js';
import { richRunEvents, richRunId } from '../../fixtures/webview/richRun.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest({ viewport: { width: 420, height: 700 } });

const changes: FileChange[] = [
	{ path: '.github/workflows/x.yml', kind: 'add', baseHash: null, base: null, content: 'on: push\n' },
	{ path: 'src/app.js', kind: 'add', baseHash: null, base: null, content: 'x\n' },
];

describe('change review: files other tools run', () => {
	it('start unticked with the mark and its reason; ticking posts select-hunks; the ordinary file is ticked', async () => {
		const set = buildReviewChangeSet({
			runId: richRunId,
			winner: { agentId: 'w', label: 'w.final' },
			changes,
		});
		const pending = new PendingChangeSet({} as FinishedRun, set, []);
		await ui.panel.send({
			type: 'snapshot',
			state: reduceRunEvents(initialRunState(), richRunEvents('end')),
			runs: [],
		});
		await ui.panel.send({ type: 'change-set', changeSet: pending.view() });
		const page = ui.panel.page;
		const row = (path: string) => page.locator(`li.change[data-path="${path}"]`);
		const checked = (path: string) =>
			row(path)
				.locator('input.file-check')
				.evaluate((input) => (input as unknown as { checked: boolean }).checked);

		const workflow = row('.github/workflows/x.yml');
		const mark = workflow.locator('.change-runs-code');
		await expect(mark.textContent()).resolves.toBe('runs code later');
		await expect(mark.isVisible()).resolves.toBe(true);
		await expect(mark.getAttribute('title')).resolves.toBe(
			'Other programs run or obey this file later: CI runs it after a push, with the repository’s secrets. It starts unticked; tick it once you have read it.',
		);
		expect(await checked('.github/workflows/x.yml')).toBe(false);

		expect(await checked('src/app.js')).toBe(true);
		await expect(row('src/app.js').locator('.change-runs-code').isVisible()).resolves.toBe(false);

		await workflow.locator('input.file-check').click();
		expect((await ui.panel.posted()).at(-1)).toEqual({
			type: 'select-hunks',
			runId: richRunId,
			path: '.github/workflows/x.yml',
			ids: ['final#0'],
			selected: true,
		});
	});
});
