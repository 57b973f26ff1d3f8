import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPlanDocument } from '../../../src/core/plans/planDocument';
import { read, untilOnDisk } from './changes';
import { installTeam, type Scenario } from './scenario';

const planId = '20261203-150102-ab12';
const planPath = `.massgen/plans/${planId}.md`;

/**
 * Like a user (docs/editor.md, Execute Plan): a stored plan of two steps is opened from Quick
 * Open; its editor title offers Execute Plan; "Step by step" runs step 1 while the panel says
 * "Plan: step 1 of 2 — Write one.ts"; Accept all in the panel writes the step's file and the plan
 * document shows step 1 ticked, with the run that did it.
 */
export const executePlan: Scenario = {
	name: 'Execute Plan from the plan editor title: the panel shows the step, Accept all ticks it in the document',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'plans', 'team.yaml');
		mkdirSync(join(folder, 'plan-demo'), { recursive: true });
		writeFileSync(join(folder, 'plan-demo', 'README.md'), '# Plan demo\n');
		mkdirSync(join(folder, '.massgen', 'plans'), { recursive: true });
		const step = (title: string, file: string) => ({
			title,
			files: [file],
			risk: 'low' as const,
			riskNote: 'a new file',
			verify: 'read it',
			details: `Export the constant from ${file}.`,
			agents: ['alpha', 'beta'],
		});
		writeFileSync(
			join(folder, planPath),
			renderPlanDocument(
				{
					id: planId,
					task: 'Add two constants',
					depth: 'medium',
					run: planId,
					created: '2026-12-03T15:01:02.000Z',
					agents: 2,
				},
				{
					title: 'Add two constants',
					of: 2,
					others: [],
					steps: [step('Write one.ts', 'plan-demo/one.ts'), step('Write two.ts', 'plan-demo/two.ts')],
				},
			),
		);
	},
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('plan-demo');
		// Quick Open, as a user opens a file by name.
		await page.keyboard.press('Control+P');
		const input = page.locator('.quick-input-widget input.input');
		await input.waitFor({ state: 'visible', timeout: 10_000 });
		await input.fill(`${planId}.md`);
		await page
			.locator('.quick-input-list .monaco-list-row', { hasText: `${planId}.md` })
			.first()
			.waitFor({ timeout: 15_000 });
		await input.press('Enter');
		const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines');
		await editor.filter({ hasText: 'Write one.ts' }).first().waitFor({ timeout: 15_000 });

		const action = page.locator('.editor-actions .action-label[aria-label^="Execute Plan"]').first();
		await action.waitFor({ timeout: 15_000 });
		await workbench.screenshot('execute-plan-01-editor-title');
		await action.click();
		await workbench.pickQuickItem('Execute Plan', 'Step by step');

		const frame = workbench.webviewFrame();
		const progress = frame.locator('.plan-progress h2', { hasText: 'Plan: step 1 of 2 — Write one.ts' });
		await progress.waitFor({ timeout: 30_000 });
		const accept = frame.getByRole('button', { name: 'Accept all' });
		await accept.waitFor({ timeout: 30_000 });
		assert.equal(read(folder, 'plan-demo/one.ts'), null, 'nothing written before Accept');
		const states = await frame.locator('.plan-progress .plan-step-state').allTextContents();
		assert.deepEqual(states, ['waiting for your review', 'to do']);
		await workbench.screenshot('execute-plan-02-panel-step-1');
		await accept.click();

		await untilOnDisk(
			'step 1 accepted',
			() => read(folder, 'plan-demo/one.ts') === 'export const one = 1;\n',
		);
		// The document (open, nothing unsaved: the mark is saved) shows step 1 ticked with its run.
		await untilOnDisk('step 1 ticked in the plan', () =>
			/- \[x\] \*\*Write one\.ts\*\*[^\n]*\n {2}- Run: \d{8}-\d{6}-\w+\n/.test(read(folder, planPath) ?? ''),
		);
		await editor.filter({ hasText: '- [x] **Write one.ts**' }).first().waitFor({ timeout: 15_000 });
		// Step 2's identical write changes nothing: done, and the plan is complete.
		await workbench.notification(/every step of the plan .* is done/, 30_000);
		await untilOnDisk('step 2 ticked', () =>
			/- \[x\] \*\*Write two\.ts\*\*/.test(read(folder, planPath) ?? ''),
		);
		await workbench.screenshot('execute-plan-03-plan-done');
	},
};
