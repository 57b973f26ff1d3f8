/**
 * The panel's Revert Run (docs/sessions.md): hidden while changes are pending, shown once nothing is and something was written, and it
 * posts `revert-run` with the shown run's id (the host runs massgen.revertRun for it).
 */
import { describe, expect, it } from 'vitest';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { richRunEvents } from '../../fixtures/webview/richRun.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest();

describe('webview panel: Revert Run', () => {
	it('appears once nothing is pending and posts revert-run with the run id', async () => {
		const state = reduceRunEvents(initialRunState(), richRunEvents('end'));
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		const file = {
			path: 'src/config/load.ts',
			kind: 'modify' as const,
			renamedFrom: null,
			added: 1,
			removed: 1,
			userEdit: 'none' as const,
			hunks: [],
			alternatives: [],
		};
		await ui.panel.send({
			type: 'change-set',
			changeSet: { runId: state.runId!, winner: null, agentCount: 1, files: [file] },
		});
		const page = ui.panel.page;
		expect(await page.locator('.accept-all').isVisible()).toBe(true);
		expect(await page.locator('.revert-run').isHidden()).toBe(true);

		await ui.panel.send({ type: 'change-set', changeSet: null });
		const revert = page.locator('.revert-run');
		// Rejected: nothing was written, nothing to revert.
		await ui.panel.send({
			type: 'change-outcomes',
			runId: state.runId!,
			files: [{ path: file.path, outcome: 'rejected' }],
		});
		expect(await revert.isHidden()).toBe(true);
		await ui.panel.send({
			type: 'change-outcomes',
			runId: state.runId!,
			files: [{ path: file.path, outcome: 'accepted' }],
		});
		expect(await revert.isVisible()).toBe(true);
		await revert.click();
		expect((await ui.panel.posted()).at(-1)).toEqual({ type: 'revert-run', runId: state.runId });
	});
});
