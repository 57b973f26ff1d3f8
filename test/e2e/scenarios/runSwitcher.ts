import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLoopbackTeam } from '../../servers/loopbackTeam';
import type { Scenario } from './scenario';

const first = 'Why is the first build slow?';
const second = 'Rename the config loader, please';

/**
 * Like a user with two questions at once: Ask Team starts the first (a loopback team whose replies
 * wait until the scenario lets them go, so it streams for as long as needed); the second is asked
 * in the side bar's box while the first goes, and the side bar shows it; the switcher at the top
 * lists both and switches back; Open in Editor gives the first run its own tab, titled by its
 * question; the tab is closed and the run goes on: both finish once the replies go.
 */
export const runSwitcher: Scenario = {
	name: 'side bar: a second question while the first streams, the run switcher, a run’s own editor tab closed while it runs',
	async run(workbench, folder) {
		let release!: () => void;
		const held = new Promise<void>((resolve) => (release = resolve));
		const team = await startLoopbackTeam({
			hold: (request) => (request.method === 'POST' ? held : undefined),
		});
		try {
			mkdirSync(join(folder, '.massgen'), { recursive: true });
			writeFileSync(join(folder, '.massgen', 'config.yaml'), team.configYaml());
			await twoRuns(workbench, folder, release);
		} finally {
			release();
			await team.close();
		}
	},
};

async function twoRuns(
	workbench: Parameters<Scenario['run']>[0],
	folder: string,
	release: () => void,
): Promise<void> {
	const { page } = workbench;
	await workbench.waitForExplorer('hello.ts');
	await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
	await workbench.answerInputBox(/read-only/, first);
	await workbench.waitInPanel('.question');
	const frame = workbench.webviewFrame();
	await frame.locator('.question', { hasText: first }).waitFor({ timeout: 30_000 });
	await frame.locator('.run-status', { hasText: /running/i }).waitFor({ timeout: 30_000 });

	// The second question in the side bar's box while the first goes: it runs beside, shown here.
	const box = frame.locator('#ask-input textarea');
	await box.fill(second);
	await box.press('Control+Enter');
	await frame.locator('.question', { hasText: second }).waitFor({ timeout: 30_000 });
	const select = frame.getByRole('combobox', { name: 'Runs of this window' });
	await select.waitFor({ timeout: 15_000 });
	const options = () => select.locator('option').allTextContents();
	await waitUntil('both runs in the switcher', async () => (await options()).length === 2);
	assert.deepEqual(await options(), [`${first} — working`, `${second} — working`]);
	await workbench.screenshot('run-switcher-01-second-run');

	// Back to the first by keyboard.
	await select.focus();
	await page.keyboard.press('ArrowUp');
	await frame.locator('.question', { hasText: first }).waitFor({ timeout: 15_000 });
	await workbench.screenshot('run-switcher-02-switched');

	// The first run in its own editor tab, titled by its question.
	await workbench.runCommand('MassGen: Open in Editor');
	const tab = page.locator('.tabs-container .tab', { hasText: first });
	await tab.waitFor({ timeout: 15_000 });
	await workbench.screenshot('run-switcher-03-own-tab');

	// Closed while it runs: the run goes on, and both finish once the replies go.
	await tab.locator('.tab-actions .action-label').click();
	await tab.waitFor({ state: 'detached', timeout: 10_000 });
	release();
	await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 60_000 });
	const runsDir = join(folder, '.massgen', 'runs');
	const results = () =>
		(existsSync(runsDir) ? readdirSync(runsDir) : [])
			.map((id) => join(runsDir, id, 'result.json'))
			.filter((file) => existsSync(file))
			.map((file) => JSON.parse(readFileSync(file, 'utf8')) as { question: string; status: string });
	await waitUntil('both runs recorded', async () => results().length === 2);
	assert.deepEqual(
		results()
			.map((result) => `${result.question}: ${result.status}`)
			.sort(),
		[`${second}: completed`, `${first}: completed`].sort(),
	);
	await waitUntil('the switcher to say both finished', async () =>
		(await options()).every((text) => !text.endsWith('— working')),
	);
	await workbench.screenshot('run-switcher-04-both-finished');
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
