import assert from 'node:assert/strict';
import { installTeam, type Scenario } from './scenario';

const question = 'Plan the 3.0 release';
const message = 'Keep the migration guide short.';

/**
 * Steering a running team in the panel, like a user: while one agent is still working, the lane of
 * the other has "Message"; a click makes the message box below the lanes that agent's, the user
 * types and presses Enter; the lane lists the message, then marks it read once the agent's next call
 * had it. Then Finish now in the header: coordination ends, the header says the user finished it,
 * and the answer with the most votes is presented without waiting for the slow agent.
 */
export const steerPanel: Scenario = {
	name: 'steering: a message to one lane from the box, then Finish now in the header',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'steer-team.yaml');
	},
	async run(workbench) {
		await workbench.waitForExplorer('hello.ts');
		await workbench.openInEditor('hello.ts');
		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, question);
		await workbench.waitInPanel('.lane');
		const frame = workbench.webviewFrame();
		const planner = frame.locator('section.lane[data-agent="planner"]');
		// planner has voted; checker waits for an approval: the run goes on (every live agent votes).
		await planner.locator('.state-badge[data-state="voted"]').waitFor({ timeout: 30_000 });

		await planner.getByRole('button', { name: 'Message planner' }).click();
		const box = frame.locator('.steer-box');
		assert.equal(await box.getByRole('combobox', { name: 'To' }).inputValue(), 'planner');
		// The click gave the box the keyboard.
		await workbench.page.keyboard.type(message);
		await workbench.screenshot('steer-panel-01-typed');
		await workbench.page.keyboard.press('Enter');
		await box.getByText('Sent: each agent reads it at its next model call.').waitFor({ timeout: 10_000 });
		const sent = planner.locator('.lane-user-message', { hasText: message });
		await sent.waitFor({ timeout: 10_000 });
		// The message took planner's vote: it is asked again, and that call carries the message.
		await planner.locator('.lane-user-message[data-delivered="true"]').waitFor({ timeout: 20_000 });
		assert.match((await sent.textContent()) ?? '', /read$/);
		await workbench.screenshot('steer-panel-02-read');

		// Finish now: no waiting for checker (its `npm publish` waits for an approval nobody gives).
		await frame.getByRole('button', { name: 'Finish now: the agent with the most votes presents' }).click();
		const ended = frame.locator('.coordination-end');
		await ended.waitFor({ timeout: 20_000 });
		assert.equal(await ended.textContent(), 'Coordination ended: you finished it');
		// The answer with the most votes is presented (planner's or writer's: the anonymous order decides
		// which one both voted for), checker not waited for.
		const winner = frame.locator('.winner-banner .winner-title strong');
		await winner.waitFor({ timeout: 30_000 });
		assert.notEqual(await winner.textContent(), 'checker');
		// The run ends after the presentation: the message box goes with it.
		await box.waitFor({ state: 'hidden', timeout: 30_000 });
		await workbench.screenshot('steer-panel-03-finished');
	},
};
