/**
 * The panel speaks the host's strings table (docs/l10n.md): given the table built from the German
 * bundle (what `vscode.l10n.t` returns in a German VS Code), the real panel bundle shows German
 * labels, placeholders, aria-labels and counts, and a snapshot whose table is incomplete is refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { englishTexts, webviewStrings, type TextSource } from '../../../src/vscode/panel/panelStrings.js';
import { demoEvents, pastRuns, repoRoot } from './harness.js';
import { usePanelPerTest } from './panelSession.js';

const german = JSON.parse(readFileSync(join(repoRoot, 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<
	string,
	string
>;
const germanTexts = {
	l10n: { t: ((message: string) => german[message] ?? `MISSING ${message}`) as TextSource['l10n']['t'] },
};

const ui = usePanelPerTest();

describe('the panel in German: every text from the host’s table', () => {
	it('the empty panel, the ask box and the past runs read the German table', async () => {
		const { page } = ui.panel;
		await ui.panel.send({
			type: 'snapshot',
			state: null,
			runs: pastRuns(),
			strings: webviewStrings(germanTexts),
		});
		await expect
			.poll(() => page.locator('#ask-input').getAttribute('placeholder'))
			.toBe(german['Ask the team a question about this workspace… (# adds context)']);
		expect(await page.locator('.ask-box').getAttribute('aria-label')).toBe('Das Team fragen');
		expect(await page.locator('body').textContent()).toContain('Frühere Läufe');
		expect(await page.locator('body').textContent()).not.toContain('MISSING');
	});

	it('a finished run’s lanes, votes and counts are German, with the plural form by count', async () => {
		const { page } = ui.panel;
		const state = reduceRunEvents(initialRunState(), demoEvents());
		await ui.panel.send({ type: 'snapshot', state, runs: [], strings: webviewStrings(germanTexts) });
		await expect.poll(() => page.locator('body').textContent()).toContain('Endgültige Antwort');
		const text = (await page.locator('body').textContent()) ?? '';
		expect(text).toMatch(/Runde \d/);
		expect(text).toContain('3 von 3 Stimmen');
		expect(text).toContain('1 Antwort · 3-mal nach neueren Antworten überarbeitet');
		expect(await page.locator('.winner-banner .winner-title').textContent()).toBe('Gewinner: reviewer');
		expect(await page.locator('.vote-strip .vote-chip').first().textContent()).toBe('planner → reviewer');
		for (const english of ['Final answer', 'Vote history', 'Past runs', 'Agents vote once']) {
			expect(text).not.toContain(english);
		}
		expect(text).not.toContain('MISSING');
	});

	it('a snapshot with an incomplete table is refused: nothing is built from it', async () => {
		const { page } = ui.panel;
		const { answers: _dropped, ...partial } = webviewStrings(englishTexts);
		await ui.panel.send({ type: 'snapshot', state: null, runs: [], strings: partial as never });
		expect(await page.locator('#ask-input').count()).toBe(0);
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await expect.poll(() => page.locator('#ask-input').count()).toBe(1);
	});
});
