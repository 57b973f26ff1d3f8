/**
 * The review loop in the panel (docs/changes.md), in Chromium under the real CSP: a hunk's Comment
 * button posts `comment-hunk` for that hunk, its comments are listed with what a revision made of
 * them ("Addressed (c1)"), and "Send to Team (N comments)" shows only with open comments and posts
 * `send-to-team` for the shown run. Every posted message passes the host's schema.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeSetView } from '../../../src/protocol/changeSetView.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState, type RunState } from '../../../src/protocol/runState.js';
import { parseWebviewMessage } from '../../../src/protocol/webviewMessageSchema.js';
import { ChangeSetFixture, changePaths } from '../../fixtures/webview/changeSet.js';
import { richRunEvents, richRunId } from '../../fixtures/webview/richRun.js';
import { usePanelPerTest } from './panelSession.js';

const state: RunState = reduceRunEvents(initialRunState(), richRunEvents('end'));
const ui = usePanelPerTest({ viewport: { width: 420, height: 900 } });

/** The fixture's set with comments on the first hunk of the first file (a revision's verdicts). */
function withComments(view: ChangeSetView, openComments: number): ChangeSetView {
	return {
		...view,
		openComments,
		files: view.files.map((file) =>
			file.path !== changePaths.load
				? file
				: {
						...file,
						hunks: file.hunks.map((hunk, i) =>
							i !== 0
								? hunk
								: {
										...hunk,
										comments: [
											{ id: 't1', text: 'Say Hi here.', state: 'resolved', commentId: 'c1', addressed: true },
											{
												id: 't2',
												text: '<b>not markup</b>',
												state: 'open',
												commentId: 'c2',
												addressed: false,
											},
										],
									},
						),
					},
		),
	};
}

const hunk = (id: string) =>
	ui.panel.page.locator(`li.change[data-path="${changePaths.load}"] .hunk[data-id="${id}"]`);
const lastPosted = async () => (await ui.panel.posted()).at(-1);

describe('review loop in the panel', () => {
	it('Comment on a hunk posts comment-hunk for it; comments show their verdicts as text; Send to Team shows with open comments and posts send-to-team', async () => {
		const view = new ChangeSetFixture().view();
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		await ui.panel.send({ type: 'change-set', changeSet: withComments(view, 0) });
		const page = ui.panel.page;
		const send = page.locator('.send-to-team');
		await expect(send.isHidden()).resolves.toBe(true);

		const first = hunk('final#0');
		await expect(first.locator('.hunk-comment').count()).resolves.toBe(2);
		await expect(first.locator('.hunk-comment-text').allTextContents()).resolves.toEqual([
			'Say Hi here.',
			'<b>not markup</b>',
		]);
		await expect(first.locator('.hunk-comment b').count()).resolves.toBe(0);
		await expect(first.locator('.hunk-comment-verdict').allTextContents()).resolves.toEqual([
			'Addressed (c1)',
			'Not addressed (c2)',
		]);
		await expect(hunk('final#1').locator('.hunk-comments').isHidden()).resolves.toBe(true);

		await hunk('final#1').locator('.hunk-comment-add').click();
		const comment = await lastPosted();
		expect(comment).toEqual({
			type: 'comment-hunk',
			runId: richRunId,
			path: changePaths.load,
			hunkId: 'final#1',
		});
		expect(parseWebviewMessage(comment).ok).toBe(true);
		await expect(hunk('final#1').locator('.hunk-comment-add').getAttribute('aria-label')).resolves.toBe(
			'Comment on change 2 for the team',
		);

		await ui.panel.send({ type: 'change-set', changeSet: withComments(view, 2) });
		await expect(send.isVisible()).resolves.toBe(true);
		await expect(send.textContent()).resolves.toBe('Send to Team (2 comments)');
		await send.click();
		const sent = await lastPosted();
		expect(sent).toEqual({ type: 'send-to-team', runId: richRunId });
		expect(parseWebviewMessage(sent).ok).toBe(true);
	});
});
