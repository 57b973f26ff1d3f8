import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installTeam, type Scenario } from './scenario';

const question = 'How should we document this project?';
const agents = ['planner', 'reviewer', 'skeptic'];

/**
 * Like a user: a workspace with a team config (.massgen/config.yaml = the shipped scripted demo
 * team), an editor open, F1 → "MassGen: Ask Team" → type the question → Enter. The panel opens
 * beside the editor without taking focus and shows the lanes, the votes, the winner and the final
 * answer; the proposed CONTRIBUTING.md is not on disk. Then a follow-up from the panel's box, the
 * first run reopened from the past-runs list, and a window reload that restores the panel as it was.
 */
export const askTeam: Scenario = {
	name: 'palette: MassGen: Ask Team → question → the panel shows lanes, votes, winner and final answer',
	prepareWorkspace(folder) {
		installTeam(folder, 'configs', 'demo.yaml');
	},
	async run(workbench, folder) {
		const { page } = workbench;
		const started = Date.now();
		const mark = (what: string) =>
			console.log(`       ${((Date.now() - started) / 1000).toFixed(1)}s ${what}`);
		await workbench.waitForExplorer('hello.ts');
		// An editor with the keyboard focus: the run must not take it away.
		await workbench.openInEditor('hello.ts');

		mark('workbench ready, editor focused');
		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, question, {
			beforeEnter: async () => void (await workbench.screenshot('ask-team-01-question')),
		});

		mark('question sent');
		await workbench.waitInPanel('.lane');
		mark('lanes shown');
		// Focus stayed in the editor: the panel opened beside it with preserveFocus. Checked as soon
		// as the panel shows: once the run ends, its change review may open a diff.
		assert.equal(
			await page.locator('.editor-instance .monaco-editor.focused').count(),
			1,
			'the editor keeps the focus',
		);
		assert.notEqual(
			await page.evaluate('document.activeElement && document.activeElement.tagName'),
			'IFRAME',
			'the webview did not take the focus',
		);
		const frame = workbench.webviewFrame();
		await frame.locator('.lane').nth(2).waitFor({ timeout: 30_000 });
		assert.equal(await frame.locator('.question').textContent(), question);
		const ids = (await frame.locator('.lane .lane-id').allTextContents()).sort();
		assert.deepEqual(ids, [...agents].sort());
		await workbench.screenshot('ask-team-02-running');

		const winner = frame.locator('.winner-banner .winner-title strong');
		await winner.waitFor({ timeout: 30_000 });
		const winnerId = (await winner.textContent())?.trim() ?? '';
		assert.ok(agents.includes(winnerId), `winner ${winnerId}`);
		const finalAnswer = frame.locator('.final-answer .final-markdown');
		await finalAnswer.waitFor({ timeout: 30_000 });
		assert.match(
			(await finalAnswer.textContent()) ?? '',
			new RegExp(`CONTRIBUTING\\.md.*${winnerId}'s presentation`, 's'),
		);
		await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 10_000 });

		// The tally (one row per agent with an answer: under load an agent may vote before it
		// answers, which the protocol allows) and the three current votes with their reasons.
		const tally = await frame.locator('.tally li').allTextContents();
		assert.ok(tally.length >= 1 && tally.length <= 3, `tally rows: ${tally.join(' | ')}`);
		assert.ok(
			tally.some((row) => row.includes(winnerId) && /3 votes/.test(row)),
			`tally: ${tally.join(' | ')}`,
		);
		assert.equal(await frame.locator('.reasons li').count(), 3);
		await frame.locator('.final-answer').scrollIntoViewIfNeeded();
		await workbench.screenshot('ask-team-03-finished');
		mark('winner, votes and final answer shown');

		// Nothing was written: the change is only proposed; the run log is there.
		assert.equal(
			existsSync(join(folder, 'CONTRIBUTING.md')),
			false,
			'CONTRIBUTING.md must not be written before Accept',
		);
		const runs = readdirSync(join(folder, '.massgen', 'runs'));
		assert.equal(runs.length, 1);
		const result = JSON.parse(
			readFileSync(join(folder, '.massgen', 'runs', runs[0]!, 'result.json'), 'utf8'),
		) as { status: string; winner: { agentId: string } };
		assert.deepEqual([result.status, result.winner.agentId], ['completed', winnerId]);

		// A follow-up from the panel's question box starts the next turn (the past-runs list grows).
		// Keyboard (Ctrl+Enter), as the change review's notification may cover the Ask button.
		const box = frame.locator('#ask-input textarea');
		await box.fill('And what about a changelog?');
		await box.press('Control+Enter');
		await frame.locator('.question', { hasText: 'And what about a changelog?' }).waitFor({ timeout: 30_000 });
		await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 30_000 });
		await frame.locator('.run-list .run-row').nth(1).waitFor({ timeout: 10_000 });
		assert.equal(readdirSync(join(folder, '.massgen', 'runs')).length, 2);
		await workbench.screenshot('ask-team-04-follow-up');
		mark('follow-up answered');

		// Past runs: open the first run again (read back from its events.jsonl, read-only).
		const firstRun = frame.locator('.run-list .run-row', { hasText: question });
		await firstRun.press('Enter');
		await frame.locator('.question', { hasText: question }).waitFor({ timeout: 15_000 });
		await frame
			.locator('.winner-banner .winner-title strong', { hasText: winnerId })
			.waitFor({ timeout: 10_000 });
		assert.equal(
			await frame.locator('.run-list .run-row[aria-current="true"] .run-question').textContent(),
			question,
		);
		mark('past run reopened');
		// VS Code writes workspace storage (where the host remembers the shown run) a moment after
		// the change; a user does not reload within that moment either.
		await new Promise((resolve) => setTimeout(resolve, 2_000));

		// Reload the window: the serializer restores the panel, and the host's snapshot (the run the
		// panel showed last, read back from its events.jsonl) fills it again.
		await page.reload();
		await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
		await workbench.waitInPanel('.question', 60_000);
		const restored = workbench.webviewFrame();
		assert.equal(await restored.locator('.question').textContent(), question);
		await restored.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 10_000 });
		await restored.locator('.winner-banner .winner-title strong').waitFor({ timeout: 10_000 });
		await workbench.screenshot('ask-team-05-after-reload');
		mark('panel restored after reload');
	},
};
