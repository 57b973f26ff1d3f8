import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startLoopbackProvider } from '../../servers/loopbackProvider';
import type { Workbench } from '../workbench';
import type { Scenario } from './scenario';

/**
 * The cost estimate's question before an expensive run, answered in VS Code's own modal: two
 * claude-opus-4-1 agents (3 calls × up to 2,000 output tokens at $75/M each ≈ $0.90, over the
 * default $0.50 of massgen.confirmCostAboveUsd) on a loopback Anthropic server. Escape starts
 * nothing (no request, no run directory); Start Run runs the team.
 */
export const costEstimate: Scenario = {
	name: 'cost estimate: the modal before an expensive run; Escape starts nothing, Start Run runs it',
	async run(workbench, folder) {
		const server = await startLoopbackProvider('anthropic', { auto: { name: 'claude' } });
		try {
			const agents = ['first', 'second'].map((id) => ({
				id,
				backend: { type: 'claude', model: 'claude-opus-4-1', base_url: server.baseUrl, api_key: 'loopback' },
			}));
			mkdirSync(join(folder, '.massgen'), { recursive: true });
			writeFileSync(join(folder, '.massgen', 'config.yaml'), stringify({ agents }));
			await answerEstimate(workbench, folder, () => server.requests.length);
		} finally {
			await server.close();
		}
	},
};

async function answerEstimate(workbench: Workbench, folder: string, requests: () => number): Promise<void> {
	const { page } = workbench;
	const runsDir = join(folder, '.massgen', 'runs');
	const runs = () => (existsSync(runsDir) ? readdirSync(runsDir) : []);
	const dialog = page.locator('.monaco-dialog-box', { hasText: /this run is estimated at \$0\.9\d{3}/ });
	const ask = async (question: string) => {
		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, question);
		await dialog.waitFor({ timeout: 30_000 });
	};
	await workbench.waitForExplorer('hello.ts');

	// The figure, how it was made, and what would cap it.
	await ask('What does hello.ts export?');
	const text = (await dialog.textContent()) ?? '';
	assert.match(text, /2 priced agents × 3 calls each/);
	assert.match(text, /Set massgen\.maxCostUsd to cap what a run may spend\./);
	await workbench.screenshot('cost-estimate');
	await page.keyboard.press('Escape');
	await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
	assert.equal(requests(), 0, 'no model was asked');
	assert.deepEqual(runs(), [], 'no run was recorded');

	// Asked again and started: the team runs.
	await ask('What does hello.ts export, then?');
	await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Start Run' }).click();
	await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
	await workbench.waitInPanel('.lane');
	const frame = workbench.webviewFrame();
	await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 60_000 });
	assert.ok(requests() > 0, 'the loopback server was asked');
	assert.equal(runs().length, 1);
}
