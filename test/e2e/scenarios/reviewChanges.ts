import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calcBase, calcFixed, calcPath } from '../../fixtures/changes/files';
import { installTeam, type Scenario } from './scenario';

/**
 * Like a user (docs/changes.md; Review Changes): a git repository whose working tree brings two bugs
 * into calc.ts. Palette → "MassGen: Review Changes" → Working Tree (the picker also says the pull
 * request comes from git, GitHub Pull Requests being absent). The notification's List Findings opens
 * a finding at its lines: the comment thread says how many agents raised it.
 */
export const reviewChanges: Scenario = {
	name: 'review changes: palette → working tree → comment thread with its agreement count',
	prepareWorkspace(folder) {
		mkdirSync(join(folder, 'review-demo'), { recursive: true });
		writeFileSync(join(folder, calcPath), calcFixed);
		installTeam(folder, 'test', 'fixtures', 'changes', 'diff-review-team.yaml');
		const git = (...args: string[]) =>
			execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
				cwd: folder,
				stdio: 'pipe',
			});
		git('init', '-q', '-b', 'main');
		git('add', calcPath);
		git('commit', '-qm', 'calc');
		writeFileSync(join(folder, calcPath), calcBase);
	},
	async run(workbench) {
		const { page } = workbench;
		await workbench.waitForExplorer('review-demo');
		await workbench.runCommand('MassGen: Review Changes', { opensInput: true });
		const widget = page.locator('.quick-input-widget');
		await widget
			.locator('.quick-input-list .monaco-list-row', { hasText: 'Pull Request (from git)' })
			.first()
			.waitFor({ timeout: 15_000 });
		await widget
			.locator('.quick-input-list .monaco-list-row', {
				hasText: 'The GitHub Pull Requests extension is not installed',
			})
			.first()
			.waitFor({ timeout: 5_000 });
		await workbench.screenshot('review-changes-01-picker');
		await workbench.pickQuickItem('MassGen: Review Changes', 'Working Tree');

		const toast = page
			.locator('.notifications-toasts .notification-toast', {
				hasText: /findings in the working tree changes, shown as comments/,
			})
			.first();
		await toast.waitFor({ timeout: 60_000 });
		await toast.getByRole('button', { name: 'List Findings' }).click();
		await workbench.pickQuickItem(/MassGen review of the working tree changes/, 'calc.ts:3', /calc\.ts:3/);

		const thread = (label: RegExp) =>
			page.locator('.review-widget', { has: page.locator('.review-title', { hasText: label }) }).first();
		await thread(/High · raised by 3 of 3 agents/).waitFor({ timeout: 15_000 });
		await workbench.screenshot('review-changes-02-thread');
	},
};
