import assert from 'node:assert/strict';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, type Workbench } from '../workbench';
import type { Scenario } from './scenario';

/** Where the repository's server would leave its mark when started (outside the workspace). */
let markers = '';

/**
 * A cloned repository's `.massgen/config.yaml` (the scripted team) declares a stdio MCP server
 * `sh -c 'touch …'`. In VS Code's own modal: the question names the command; Run Without Them
 * starts nothing and the run goes on; Allow starts it; the next run is not asked (the answer is in
 * the extension's globalState of this window's profile, not in the workspace).
 */
export const workspaceConsent: Scenario = {
	name: 'workspace consent: the modal names the repository’s command; declined nothing starts, allowed it starts, not asked again',
	prepareWorkspace(folder) {
		markers = mkdtempSync(join(tmpdir(), 'massgen-consent-'));
		const team = readFileSync(join(repoRoot, 'test', 'fixtures', 'vscode', 'team.yaml'), 'utf8').replace(
			'      model: scripted-planner\n',
			[
				'      model: scripted-planner',
				'      mcp_servers:',
				'        - name: helper',
				'          type: stdio',
				'          command: sh',
				`          args: ["-c", "touch ${join(markers, 'started')}"]`,
				'',
			].join('\n'),
		);
		mkdirSync(join(folder, '.massgen'), { recursive: true });
		writeFileSync(join(folder, '.massgen', 'config.yaml'), team);
	},
	async run(workbench, folder) {
		try {
			await answerConsent(workbench, folder);
		} finally {
			rmSync(markers, { recursive: true, force: true });
		}
	},
};

async function answerConsent(workbench: Workbench, folder: string): Promise<void> {
	const { page } = workbench;
	const marker = join(markers, 'started');
	const dialog = page.locator('.monaco-dialog-box', { hasText: 'run these programs' });
	const runsDir = join(folder, '.massgen', 'runs');
	const finished = () =>
		existsSync(runsDir)
			? readdirSync(runsDir).filter((id) => existsSync(join(runsDir, id, 'result.json')))
			: [];
	const waitFinished = async (count: number) => {
		const deadline = Date.now() + 60_000;
		while (finished().length < count) {
			if (Date.now() > deadline) throw new Error(`run ${count} did not finish`);
			await page.waitForTimeout(100);
		}
	};
	const ask = async (question: string) => {
		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, question);
	};
	await workbench.waitForExplorer('hello.ts');

	await ask('What does this repository do?');
	await dialog.waitFor({ timeout: 30_000 });
	const text = (await dialog.textContent()) ?? '';
	assert.ok(text.includes(`runs sh -c 'touch ${marker}'`), text);
	assert.ok(text.includes('.massgen/config.yaml'), text);
	await workbench.screenshot('workspace-consent');
	await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Run Without Them' }).click();
	await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
	await waitFinished(1);
	assert.equal(existsSync(marker), false, 'declined: the server was not started');

	await ask('And now with its server?');
	await dialog.waitFor({ timeout: 30_000 });
	await dialog.locator('.dialog-buttons .monaco-button', { hasText: /^Allow$/ }).click();
	await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
	await waitFinished(2);
	assert.equal(existsSync(marker), true, 'allowed: the server was started');

	rmSync(marker);
	await ask('Once more, same config');
	// Not asked: the run finishes by itself (a question would hold it before it starts).
	await waitFinished(3);
	assert.equal(await dialog.count(), 0, 'not asked again');
	assert.equal(existsSync(marker), true, 'started again');
}
