import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir } from '../workbench';
import { installTeam, type Scenario } from './scenario';

const question = 'Release version 1.0';
const agents = ['builder', 'tester'];
const note = 'Publishing is for maintainers.';

/**
 * Like a user (docs/tools-and-sandbox.md): a team whose two agents both want to run `npm publish` (high
 * risk). The user is typing in an editor; Ask Team opens the panel beside it without the focus. One approval
 * card appears in the panel (the identical requests are shown once), the agents' lanes show the
 * waiting run_command call, the status bar shows "1 approval", the panel's tab "MassGen (1
 * waiting)", and a notification offers Allow once / Deny / Show. The user writes a note on the
 * card and clicks Deny: the card closes, both calls fail with the note, the run goes on to a
 * winner, and permissions.jsonl records the user's denial. Nothing is ever run.
 */
export const approvals: Scenario = {
	name: 'approvals: an agent asks to run a command, the card appears in the panel, Deny → the run continues to a winner',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'approvals-team.yaml');
		// Icons in the secondary side bar's tab row: with labels, a 290 px bar holds neither Chat's nor
		// our tab (both sit in "Additional Views", where no badge shows).
		mkdirSync(join(folder, '.vscode'), { recursive: true });
		writeFileSync(
			join(folder, '.vscode', 'settings.json'),
			JSON.stringify({ 'workbench.secondarySideBar.showLabels': false }),
		);
	},
	async run(workbench, folder) {
		const { page } = workbench;
		const started = Date.now();
		const mark = (what: string) =>
			console.log(`       ${((Date.now() - started) / 1000).toFixed(1)}s ${what}`);
		await workbench.waitForExplorer('hello.ts');
		await workbench.openInEditor('hello.ts');

		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, question);
		mark('question sent');

		// The card: one for both agents, saying who asks, what exactly, and why.
		await workbench.waitInPanel('.approval-card', 60_000);
		const frame = workbench.webviewFrame();
		const card = frame.locator('.approval-card');
		await card.first().waitFor({ timeout: 30_000 });
		mark('approval card shown');
		const asker = ((await card.locator('.approval-head strong').textContent()) ?? '').trim();
		assert.ok(agents.includes(asker), `the card names the asking agent (${asker})`);
		assert.equal((await card.locator('.approval-target').textContent())?.trim(), 'npm publish');
		assert.match((await card.locator('.approval-reason').textContent()) ?? '', /publish/);
		// The card sits in the asker's lane; the top of the panel keeps a one-line summary.
		assert.equal(
			await frame.locator(`section.lane[data-agent="${asker}"] .lane-approvals .approval-card`).count(),
			1,
			"the card is in the asker's lane",
		);
		assert.equal(
			(await frame.locator('#approvals-heading').textContent())?.trim(),
			`1 approval waiting — in ${asker}’s lane`,
		);
		assert.match(
			(await card.locator('.approval-head').textContent()) ?? '',
			new RegExp(`^${asker} wants to run`),
		);
		// The header says how the run's commands are contained (the notice as its tooltip).
		const sandbox = frame.locator('.run-header .command-sandbox');
		assert.equal((await sandbox.textContent())?.trim(), 'commands sandboxed (bubblewrap)');
		assert.match(
			(await sandbox.getAttribute('title')) ?? '',
			/only the scratch copy is writable; no network/,
		);
		// Both agents wait on the same request: their lanes show the run_command call still running…
		for (const agent of agents) {
			const lane = frame.locator('.lane', { has: frame.locator('.lane-id', { hasText: agent }) });
			await lane
				.locator('.tool-call', { hasText: 'run_command' })
				.locator('.tool-status[data-status="running"]')
				// Attached, not visible: a lane is compact while the run goes on (its call shows in one line).
				.waitFor({ state: 'attached', timeout: 30_000 });
		}
		// …and still one card (a second card would mean the second agent's request was not joined).
		assert.equal(await card.count(), 1, 'identical requests of two agents are one card');
		// The badge (status bar and the view's icon) and the notification: the panel does not have the focus.
		await page
			.locator('.statusbar-item', { hasText: /1 approval/ })
			.first()
			.waitFor({ timeout: 10_000 });
		await page
			.locator('.part.auxiliarybar')
			.getByRole('tab', { name: /^MassGen Team/ })
			.locator('.badge-content', { hasText: '1' })
			.waitFor({ timeout: 10_000 });
		const toast = await workbench.notification(/wants to run `npm publish`/);
		assert.match(toast, /MassGen “[^”]+”: (builder|tester) wants to run `npm publish`/);
		for (const button of ['Allow once', 'Deny', 'Show']) {
			await page
				.locator('.notifications-toasts .notification-toast', { hasText: /wants to run/ })
				.getByRole('button', { name: button })
				.first()
				.waitFor({ timeout: 5_000 });
		}
		assert.equal(
			await page.locator('.editor-instance .monaco-editor.focused').count(),
			1,
			'the editor keeps the focus',
		);
		await card.scrollIntoViewIfNeeded();
		await workbench.screenshot('approvals-01-card');
		await card.screenshot({ path: join(resultsDir, 'approvals-02-card-closeup.png') });
		mark('badge, title, notification checked');

		// A note for the agents, then Deny.
		await card.locator('.approval-note input').fill(note);
		await card.getByRole('button', { name: 'Deny: run npm publish' }).click();
		await card.waitFor({ state: 'detached', timeout: 15_000 });
		mark('denied');

		// The run goes on: both calls failed with the note, the agents answer and vote, a winner.
		for (const agent of agents) {
			const lane = frame.locator('.lane', { has: frame.locator('.lane-id', { hasText: agent }) });
			await lane
				.locator('.tool-call', { hasText: 'run_command' })
				.locator('.tool-status[data-status="error"]')
				.waitFor({ state: 'attached', timeout: 30_000 });
		}
		const winner = frame.locator('.winner-banner .winner-title strong');
		await winner.waitFor({ timeout: 60_000 });
		const winnerId = ((await winner.textContent()) ?? '').trim();
		assert.ok(agents.includes(winnerId), `winner ${winnerId}`);
		await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 30_000 });
		await page
			.locator('.part.auxiliarybar')
			.getByRole('tab', { name: /^MassGen Team/ })
			.locator('.badge-content', { hasText: '1' })
			.waitFor({ state: 'detached', timeout: 10_000 });
		assert.equal(
			await page.locator('.statusbar-item', { hasText: /\d+ approvals?/ }).count(),
			0,
			'the badge is gone',
		);
		// The decided request stays in a one-line history.
		assert.match((await frame.locator('.approvals-decided').textContent()) ?? '', /Decided\s*1/);
		await workbench.screenshot('approvals-03-denied-winner');
		mark(`winner ${winnerId}`);

		// The audit ledger: each asking agent's call, denied by the user with the note.
		const runs = readdirSync(join(folder, '.massgen', 'runs'));
		assert.equal(runs.length, 1);
		const runDir = join(folder, '.massgen', 'runs', runs[0]!);
		const ledger = readFileSync(join(runDir, 'permissions.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map(
				(line) =>
					JSON.parse(line) as {
						agentId: string;
						target: string;
						decision: string;
						via: string;
						by: string;
						note?: string;
					},
			);
		assert.deepEqual(ledger.map((line) => line.agentId).sort(), agents);
		for (const line of ledger) {
			assert.deepEqual(
				[line.target, line.decision, line.via, line.by, line.note],
				['npm publish', 'deny', 'approval', 'user', note],
			);
		}
		const result = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as {
			status: string;
			winner: { agentId: string };
		};
		assert.deepEqual([result.status, result.winner.agentId], ['completed', winnerId]);
	},
};
