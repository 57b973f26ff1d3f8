/**
 * The panel in Chromium, served with the real `webviewHtml` CSP: rendering a recorded demo run and
 * a synthetic run with every feature, and the messages each control posts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { richRunEvents, richRunId } from '../../fixtures/webview/richRun.js';
import { artifactsDir, demoEvents, openPanel, pageProblems, pastRuns } from './harness.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest();

describe('webview panel', () => {
	it('posts ready first, and shows the empty panel with the question box and past runs', async () => {
		const posted = await ui.panel.posted();
		expect(posted[0]).toEqual({ type: 'ready' });
		await ui.panel.send({ type: 'snapshot', state: null, runs: pastRuns() });
		const page = ui.panel.page;
		await expect(page.locator('.empty-state h1').textContent()).resolves.toBe('MassGen');
		expect(await page.locator('.run-header').isHidden()).toBe(true);
		expect(await page.locator('#ask-input').isVisible()).toBe(true);
		expect(await page.locator('.run-row').count()).toBe(3);
		await ui.panel.screenshot('empty');
		// A run still going (this window's other run, another process's) lists with a spinning mark.
		const going = { ...pastRuns()[2]!, runId: '20261130-040000-zz00', status: 'running' as const };
		await ui.panel.send({ type: 'runs', runs: [going, ...pastRuns()] });
		await page.locator('.run-row .status-running .codicon-loading.codicon-modifier-spin').waitFor();
		expect(await page.locator('.run-row').count()).toBe(4);
	});

	it('renders a recorded demo run streamed as events: lanes, labels, votes, tally, winner, final answer, changed files', async () => {
		await ui.panel.send({ type: 'snapshot', state: null, runs: pastRuns() });
		const events = demoEvents();
		for (let i = 0; i < events.length; i += 5) {
			await ui.panel.send({ type: 'events', events: events.slice(i, i + 5) });
		}
		const page = ui.panel.page;

		await expect(page.locator('h1.question').textContent()).resolves.toBe(
			'How should we document this project?',
		);
		await expect(page.locator('.run-status').textContent()).resolves.toContain('Completed');
		expect(await page.locator('.cancel-run').isHidden()).toBe(true);

		const lanes = page.locator('section.lane');
		expect(await lanes.count()).toBe(3);
		expect(await page.getByRole('region', { name: 'planner' }).count()).toBe(1);
		const reviewer = page.getByRole('region', { name: /reviewer/ });
		// Plain words: the model without its backend (in the tooltip), anonymous ids only in tooltips.
		await expect(reviewer.locator('.lane-model').textContent()).resolves.toBe('scripted-reviewer');
		await expect(reviewer.locator('.lane-model').getAttribute('title')).resolves.toBe(
			'scripted / scripted-reviewer',
		);
		await expect(reviewer.locator('.lane-id').getAttribute('title')).resolves.toBe(
			'Anonymous id in prompts: agent1',
		);
		expect(await reviewer.locator('.lane-winner').isVisible()).toBe(true);
		await expect(reviewer.locator('.answer .label-chip').allTextContents()).resolves.toEqual(['Answer 1']);
		await expect(reviewer.locator('.answer .label-chip').getAttribute('title')).resolves.toBe(
			'Anonymous id in prompts: agent1.1',
		);
		await expect(
			page.locator('section.lane[data-agent="planner"] .answer .label-chip').allTextContents(),
		).resolves.toEqual(['Answer 1']);
		// One restart and two updates: it revised its work after seeing newer answers three times.
		await expect(
			page.locator('section.lane[data-agent="planner"] .lane-counters').textContent(),
		).resolves.toContain('revised 3 times after seeing newer answers');
		// The run ended: lanes are expanded (each can be collapsed by its name).
		expect(
			await lanes.evaluateAll((all) => all.filter((lane) => lane.classList.contains('is-compact')).length),
		).toBe(0);

		// The vote strip in the header: whom each agent votes for, the winner starred.
		await expect(page.locator('.run-header .vote-strip .vote-chip').allTextContents()).resolves.toEqual([
			'planner → reviewer',
			'reviewer → reviewer',
			'skeptic → reviewer',
		]);
		expect(await page.locator('.vote-strip .vote-chip.is-winner').getAttribute('data-agent')).toBe(
			'reviewer',
		);

		// Votes: graph edges, tally, reasons.
		expect(await page.locator('.vote-graph .vote-edge').count()).toBe(3);
		const tally = page.locator('.tally li.is-winner');
		await expect(tally.locator('.tally-agent').textContent()).resolves.toBe('reviewer');
		await expect(tally.locator('.tally-count').textContent()).resolves.toBe('3 votes');
		await expect(page.locator('.reasons li').first().textContent()).resolves.toContain(
			'It is concise and covers setup, tests and review.',
		);

		// Winner and the final answer as Markdown.
		await expect(page.locator('.winner-banner').textContent()).resolves.toMatch(
			/Winner: reviewer.*3 of 3 votes/s,
		);
		await expect(page.locator('.winner-banner').textContent()).resolves.not.toContain('agent1.1');
		await expect(page.locator('.final-markdown strong').textContent()).resolves.toBe('CONTRIBUTING.md');

		// Changed files.
		const rows = page.locator('.change');
		expect(await rows.count()).toBe(1);
		await expect(rows.first().getAttribute('data-path')).resolves.toBe('CONTRIBUTING.md');
		await expect(rows.first().locator('.change-kind').textContent()).resolves.toBe('added');
		expect(await page.locator('.accept-all').getAttribute('disabled')).toBeNull();

		await ui.panel.screenshot('demo-run');
	});

	it('renders a run with every feature: tool calls, restarts, invalidated votes, errors, killed agent, approvals, costs', async () => {
		const state = reduceRunEvents(initialRunState(), richRunEvents('end'));
		await ui.panel.send({ type: 'snapshot', state, runs: pastRuns() });
		const page = ui.panel.page;
		expect(await page.locator('section.lane').count()).toBe(4);
		// The folder the run worked on: its name, the full path on hover.
		const folder = page.locator('.run-header .run-folder');
		await expect(folder.textContent()).resolves.toBe('acme-service');
		await expect(folder.getAttribute('title')).resolves.toBe('Worked on /home/dev/acme-service');

		const grok = page.locator('section.lane[data-agent="grok"]');
		await expect(grok.locator('.state-badge').textContent()).resolves.toContain('killed');
		await expect(grok.locator('.lane-alert').textContent()).resolves.toContain(
			'Killed: failed 3 times in a row (rate-limit)',
		);
		await expect(grok.locator('.tool-status').getAttribute('data-status')).resolves.toBe('error');

		const gemini = page.locator('section.lane[data-agent="gemini"]');
		await expect(gemini.locator('.lane-counters').textContent()).resolves.toContain('1 workflow error');
		await expect(gemini.locator('.lane-usage').textContent()).resolves.toMatch(/tok · \$0\.\d+ · /);
		expect(await gemini.locator('.tool-call').count()).toBe(5);

		// The invalidated vote is struck through in the history, with what invalidated it.
		const struck = page.locator('.history-list li.is-invalidated');
		expect(await struck.count()).toBe(1);
		expect(await struck.locator('s').count()).toBe(1);
		await expect(struck.textContent()).resolves.toMatch(/claude → gpt.*invalidated by gemini/);

		// Changed files: add, modify, delete with icons.
		await expect(
			page.locator('.change').evaluateAll((rows) => rows.map((row) => row.className)),
		).resolves.toEqual([
			'change change-add',
			'change change-modify',
			'change change-modify',
			'change change-delete',
		]);
		expect(await page.locator('.change-delete .codicon-diff-removed').count()).toBe(1);
		await expect(page.locator('.run-header .cost').textContent()).resolves.toMatch(/\$0\.1\d/);

		// Decided approvals are listed, none is pending.
		await expect(page.locator('.approval-history li').count()).resolves.toBe(2);
		expect(await page.locator('.approval-card').count()).toBe(0);

		// Reasoning is collapsed by default; tool call details fill when opened.
		expect(
			await page.locator('section.lane[data-agent="claude"] .lane-reasoning').getAttribute('open'),
		).toBeNull();
		const write = gemini.locator('.tool-call', { hasText: 'src/config/issues.ts' });
		await write.locator('summary').click();
		// Opened sections fill on the next animation frame: wait for the text, then check it exactly.
		await write
			.locator('.code-block', { hasText: "created 'src/config/issues.ts'" })
			.waitFor({ timeout: 5_000 });
		await expect(write.locator('.code-block').first().textContent()).resolves.toContain(
			'"path": "src/config/issues.ts"',
		);
		await expect(write.locator('.code-block').last().textContent()).resolves.toBe(
			"created 'src/config/issues.ts' (12 lines)",
		);
		await page.locator('section.lane[data-agent="claude"] .lane-reasoning summary').click();
		await page
			.locator('section.lane[data-agent="claude"] .reasoning-stream', {
				hasText: 'agent3.1 keeps every issue',
			})
			.waitFor({ timeout: 5_000 });
		await ui.panel.screenshot('rich-run');
	});

	it('shows a live run: streaming lanes, Cancel, and approval cards that post decisions', async () => {
		const state = reduceRunEvents(initialRunState(), richRunEvents('live'));
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		const page = ui.panel.page;
		await expect(page.locator('.run-status').textContent()).resolves.toContain('Running');
		expect(await page.locator('.cancel-run').isVisible()).toBe(true);
		await expect(page.locator('#ask-button').getAttribute('disabled')).resolves.not.toBeNull();

		const card = page.locator('.approval-card');
		expect(await card.count()).toBe(1);
		// The pending card sits in the lane of the agent that asked; the top section is a summary line.
		expect(
			await page.locator('section.lane[data-agent="gemini"] > .lane-approvals > .approval-card').count(),
		).toBe(1);
		expect(await page.locator('section.approvals .approval-card').count()).toBe(0);
		await expect(page.locator('#approvals-heading').textContent()).resolves.toBe(
			'1 approval waiting — in gemini’s lane',
		);
		await expect(card.locator('.approval-head').textContent()).resolves.toMatch(/^gemini wants to mcp:fetch/);
		await expect(card.locator('.approval-target').textContent()).resolves.toBe(
			'https://zod.dev/error-formatting',
		);
		await expect(card.locator('.approval-reason').textContent()).resolves.toBe(
			'Network access needs your approval.',
		);
		await ui.panel.screenshot('live-run');
		await page
			.locator('section.lane[data-agent="gemini"]')
			.screenshot({ path: join(artifactsDir, 'live-run-approval-lane.png') });

		// The summary's button brings the card into view and focuses it.
		await page.getByRole('button', { name: /^Show the request in gemini’s lane/ }).click();
		// The root tsconfig has no DOM lib: the check runs as page code, like the other tests' evaluations.
		await expect
			.poll(() =>
				card.evaluate(
					(el) => (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === el,
				),
			)
			.toBe(true);

		await card.locator('vscode-textfield').click();
		await page.keyboard.type('Use the cached docs instead');
		await card.getByRole('button', { name: /^Deny/ }).click();
		await page.locator('.cancel-run').click();
		const posted = await ui.panel.posted();
		expect(posted.slice(1)).toEqual([
			{ type: 'approval', requestId: 'req-2', decision: 'deny', note: 'Use the cached docs instead' },
			// The run the page was rendered for.
			{ type: 'cancel', runId: richRunId },
		]);
		// A second click on the same card posts nothing more.
		await card.getByRole('button', { name: /^Allow once/ }).click({ force: true });
		expect((await ui.panel.posted()).length).toBe(3);
	});

	it("a new request lands in its agent's lane, reads with the action's verb, and is announced", async () => {
		const events = richRunEvents('live');
		await ui.panel.send({ type: 'snapshot', state: reduceRunEvents(initialRunState(), events), runs: [] });
		const page = ui.panel.page;
		await page.locator('section.lane[data-agent="gemini"] .approval-card').waitFor({ timeout: 5_000 });
		const t = events.at(-1)!.t + 10;
		await ui.panel.send({
			type: 'events',
			events: [
				{
					runId: richRunId,
					seq: events.length,
					t,
					type: 'approval-request',
					agentId: 'claude',
					requestId: 'req-9',
					action: 'command',
					target: 'npm publish',
					reason: 'Rule: commands that publish need your approval.',
				},
			],
		});
		const card = page.locator('section.lane[data-agent="claude"] > .lane-approvals > .approval-card');
		await card.waitFor({ timeout: 5_000 });
		await expect(card.locator('.approval-head').textContent()).resolves.toMatch(/^claude wants to run/);
		await expect(card.getAttribute('aria-label')).resolves.toBe(
			'Approval request: claude wants to run npm publish',
		);
		await expect(card.locator('.approval-target').textContent()).resolves.toBe('npm publish');
		await expect(card.locator('.approval-reason').textContent()).resolves.toBe(
			'Rule: commands that publish need your approval.',
		);
		await expect(page.locator('.sr-only[role="status"]').textContent()).resolves.toBe(
			'Approval needed: claude wants to run npm publish',
		);
		await expect(page.locator('#approvals-heading').textContent()).resolves.toBe(
			'2 approvals waiting — in gemini’s and claude’s lanes',
		);
		expect(await page.locator('section.approvals .approval-card').count()).toBe(0);
		await page
			.locator('section.lane[data-agent="claude"]')
			.screenshot({ path: join(artifactsDir, 'approval-in-lane.png') });

		await card.getByRole('button', { name: 'Allow for this run: run npm publish' }).click();
		expect((await ui.panel.posted()).at(-1)).toEqual({
			type: 'approval',
			requestId: 'req-9',
			decision: 'allow-run',
		});
	});

	it('each approval button posts its decision', async () => {
		const state = reduceRunEvents(initialRunState(), richRunEvents('live'));
		const decisions = [
			['Allow once', 'allow-once'],
			['Allow for this run', 'allow-run'],
			['Always allow', 'always'],
		] as const;
		for (const [label, decision] of decisions) {
			await ui.panel.send({ type: 'snapshot', state, runs: [] });
			await ui.panel.page
				.locator('.approval-card')
				.getByRole('button', { name: new RegExp(`^${label}`) })
				.click();
			expect((await ui.panel.posted()).at(-1)).toEqual({ type: 'approval', requestId: 'req-2', decision });
		}
	});

	it('Open diff and open-run post the right messages (with the shown run); Accept and Reject post nothing without its change set', async () => {
		const state = reduceRunEvents(initialRunState(), richRunEvents('end'));
		await ui.panel.send({ type: 'snapshot', state, runs: pastRuns() });
		const page = ui.panel.page;
		await page.getByRole('button', { name: 'Open diff of src/config/load.ts' }).click();
		await page.locator('.accept-all').click();
		await page.locator('.reject-all').click();
		await page.locator('.run-row[data-run-id="20261129-174002-k3p9"]').click();
		expect((await ui.panel.posted()).slice(1)).toEqual([
			{ type: 'open-diff', runId: state.runId, path: 'src/config/load.ts' },
			{ type: 'open-run', runId: '20261129-174002-k3p9' },
		]);
	});

	it('Ask posts the question (button and Ctrl+Enter) and clears the box; empty questions post nothing', async () => {
		const state = reduceRunEvents(initialRunState(), demoEvents());
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		const page = ui.panel.page;
		const input = page.locator('#ask-input');
		await page.locator('#ask-button').click({ force: true });
		await input.click();
		await page.keyboard.type('  Also add a CHANGELOG?  ');
		await page.locator('#ask-button').click();
		await input.click();
		await page.keyboard.type('And a code of conduct');
		await page.keyboard.press('Control+Enter');
		expect((await ui.panel.posted()).slice(1)).toEqual([
			{ type: 'ask', question: 'Also add a CHANGELOG?' },
			{ type: 'ask', question: 'And a code of conduct' },
		]);
		await expect(input.evaluate((element) => (element as unknown as { value: string }).value)).resolves.toBe(
			'',
		);
	});

	it('a new run-start in events replaces the previous run', async () => {
		const state = reduceRunEvents(initialRunState(), demoEvents());
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		await ui.panel.send({ type: 'events', events: richRunEvents('live').slice(0, 6) });
		const page = ui.panel.page;
		await expect(page.locator('h1.question').textContent()).resolves.toContain('input validation');
		await expect(
			page.locator('section.lane').evaluateAll((lanes) => lanes.map((l) => l.getAttribute('data-agent'))),
		).resolves.toEqual(['gpt', 'claude', 'gemini', 'grok']);
		expect(await page.locator('.winner-banner').isHidden()).toBe(true);
	});

	it('uses the host change set when there is one: +/- lines, renames, files edited since the team read them, accept with the run id; hides actions once settled', async () => {
		const state = reduceRunEvents(initialRunState(), richRunEvents('end'));
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		const hunk = {
			oldStart: 1,
			oldLines: 1,
			newStart: 1,
			newLines: 2,
			lines: ['-a', '+b', '+c'],
			truncated: 0,
			selected: true,
			agents: ['gemini'],
			sources: ['agent3.final'],
			replaces: [],
		};
		await ui.panel.send({
			type: 'change-set',
			changeSet: {
				runId: state.runId!,
				winner: { agentId: 'gemini', label: 'agent3.final' },
				agentCount: 3,
				files: [
					{
						path: 'src/config/load.ts',
						kind: 'modify',
						renamedFrom: null,
						added: 12,
						removed: 3,
						userEdit: 'merged',
						hunks: [{ ...hunk, id: 'final#1' }],
						alternatives: [],
					},
					{
						path: 'src/config/validate.ts',
						kind: 'add',
						renamedFrom: 'src/config/legacyValidate.js',
						added: 40,
						removed: 0,
						userEdit: 'none',
						hunks: [],
						alternatives: [],
					},
				],
			},
		});
		const page = ui.panel.page;
		const rows = page.locator('.change');
		expect(await rows.count()).toBe(2);
		await expect(rows.first().locator('.change-lines').textContent()).resolves.toBe('+12−3');
		await expect(rows.first().locator('.change-stale').textContent()).resolves.toBe('edited since: merged');
		await expect(rows.nth(1).locator('.change-kind').textContent()).resolves.toBe(
			'renamed from src/config/legacyValidate.js',
		);
		await expect(page.locator('.changes-note').textContent()).resolves.toContain(
			'1 file was edited since the team read it: accepting keeps your edits (merged).',
		);
		await ui.panel.screenshot('change-set', false);
		await page.locator('.accept-all').click();
		expect((await ui.panel.posted()).at(-1)).toEqual({ type: 'accept', runId: state.runId });

		await ui.panel.send({ type: 'change-set', changeSet: null });
		expect(await page.locator('.changes-actions').isHidden()).toBe(true);
		await expect(page.locator('.changes-note').textContent()).resolves.toBe(
			'No changes are pending any more (accepted or rejected).',
		);
	});

	it('fits a narrow side panel', async () => {
		await ui.panel.page.setViewportSize({ width: 420, height: 900 });
		const state = reduceRunEvents(initialRunState(), richRunEvents('live'));
		await ui.panel.send({ type: 'snapshot', state, runs: pastRuns() });
		const overflow = await ui.panel.page.evaluate(
			'document.documentElement.scrollWidth - document.documentElement.clientWidth',
		);
		expect(overflow).toBe(0);
		await ui.panel.screenshot('narrow-live-run');
	});
});

describe('production bundle (dist/, npm run build:webview)', () => {
	it('boots under the same CSP with zero violations and no test hooks', async () => {
		const prod = await openPanel(ui.context, ui.harness.server, 'prod');
		await prod.send({
			type: 'snapshot',
			state: reduceRunEvents(initialRunState(), demoEvents()),
			runs: pastRuns(),
		});
		expect(await prod.page.locator('section.lane').count()).toBe(3);
		await expect(prod.page.locator('.winner-banner').textContent()).resolves.toContain('reviewer');
		expect(await prod.page.evaluate('window.__massgenRenders === undefined')).toBe(true);
		expect(await pageProblems(prod)).toEqual([]);
	});
});
