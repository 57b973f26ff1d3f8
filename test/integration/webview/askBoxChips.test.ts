/**
 * The ask box's attachment chips (docs/context.md) in the real panel bundle: `#` completion against
 * host answers, chips that render, are removed by mouse and keyboard and survive a reload, pasted
 * images that become thumbnail chips (downscaled to fit, or refused), drops, and the `ask`
 * message that carries the chips. Every posted message passes the host's schema (`pageProblems`).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
	MAX_CHIP_BASE64_CHARS,
	type AttachmentChip,
	type ChipRequest,
} from '../../../src/protocol/attachmentChip.js';
import { waitForExpression, wrapPage } from './harness.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest({
	afterOpen: async (p) => {
		await p.send({ type: 'snapshot', state: null, runs: [] });
	},
});

const chip = (id: string, label: string, request: ChipRequest, detail?: string): AttachmentChip => ({
	id,
	label,
	request,
	...(detail ? { detail } : {}),
});

const fileChip = (path: string) => chip(`f-${path}`, path.split('/').pop()!, { kind: 'path', path }, path);

const posted = async <T>(type: string): Promise<T[]> =>
	((await ui.panel.posted()) as { type: string }[]).filter((message) => message.type === type) as T[];

const question = (page: Page) =>
	page.locator('#ask-input').evaluate((element) => (element as unknown as { value: string }).value);

const chipLabels = (page: Page) => page.locator('.ask-chip .chip-label').allTextContents();

/** Waits for the panel's latest `search-context` and answers it. */
async function answerSearch(items: AttachmentChip[]): Promise<{ query: string; requestId: string }> {
	await waitForExpression(ui.panel.page, `window.__posted.some((m) => m.type === 'search-context')`);
	const searches = await posted<{ query: string; requestId: string }>('search-context');
	const last = searches[searches.length - 1]!;
	await ui.panel.send({ type: 'context-results', requestId: last.requestId, items });
	return last;
}

/**
 * A PNG the page draws (kept as `window.__png`): noise (incompressible) or one flat colour. Page
 * code is text here: the root tsconfig has no DOM lib.
 */
async function pngInPage(page: Page, size: number, noise: boolean): Promise<void> {
	await page.evaluate(`(async () => {
		const size = ${Number(size)};
		const noise = ${noise ? 'true' : 'false'};
		const canvas = new OffscreenCanvas(size, size);
		const context = canvas.getContext('2d');
		const image = context.createImageData(size, size);
		for (let i = 0; i < image.data.length; i += 4) {
			image.data[i] = noise ? Math.floor(Math.random() * 256) : 40;
			image.data[i + 1] = noise ? Math.floor(Math.random() * 256) : 120;
			image.data[i + 2] = noise ? Math.floor(Math.random() * 256) : 200;
			image.data[i + 3] = 255;
		}
		context.putImageData(image, 0, 0);
		window.__png = await canvas.convertToBlob({ type: 'image/png' });
	})()`);
}

const pngSize = (page: Page) => page.evaluate('window.__png.size') as Promise<number>;

/** Pastes `window.__png` into the question as the clipboard would (an `image/png` file item). */
async function pastePng(page: Page): Promise<void> {
	await page.evaluate(`(() => {
		const data = new DataTransfer();
		data.items.add(new File([window.__png], 'image.png', { type: 'image/png' }));
		const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
		document.querySelector('#ask-input').dispatchEvent(event);
	})()`);
}

/** An attribute of the focused element. */
const focused = (page: Page, attribute: 'id' | 'aria-label') =>
	page.evaluate(`document.activeElement && document.activeElement.getAttribute('${attribute}')`);

describe('ask box chips', () => {
	it('# opens the host’s suggestions; ↓ and Enter pick one, which replaces the #text with a chip', async () => {
		const page = ui.panel.page;
		await page.locator('#ask-input').click();
		await page.keyboard.type('Explain #orch');
		const search = await answerSearch([
			chip(
				'fixed-file',
				'view.ts',
				{ kind: 'file', path: 'src/vscode/view.ts' },
				'active file src/vscode/view.ts',
			),
			fileChip('src/core/orchestrator.ts'),
			chip(
				'file-1',
				'orchestrator/',
				{ kind: 'path', path: 'src/core/orchestrator' },
				'folder src/core/orchestrator/',
			),
		]);
		expect(search.query).toBe('orch');
		const options = page.locator('.context-option');
		await options.first().waitFor();
		expect(await page.locator('[role="listbox"]').getAttribute('aria-label')).toBe('Context to attach');
		expect(await options.allTextContents()).toEqual([
			'view.tsactive file src/vscode/view.ts',
			'orchestrator.tssrc/core/orchestrator.ts',
			'orchestrator/folder src/core/orchestrator/',
		]);
		expect(await options.evaluateAll((els) => els.map((el) => el.getAttribute('aria-selected')))).toEqual([
			'true',
			'false',
			'false',
		]);
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowUp');
		expect(await page.locator('.context-option.active').textContent()).toContain('orchestrator.ts');
		await page.keyboard.press('Enter');
		expect(await page.locator('.context-completion').isHidden()).toBe(true);
		expect(await chipLabels(page)).toEqual(['orchestrator.ts']);
		expect(await question(page)).toBe('Explain ');
		// The caret stayed where the #text was: typing goes on from there.
		await page.keyboard.type('this');
		expect(await question(page)).toBe('Explain this');
		expect(await page.locator('.ask-chip').getAttribute('aria-label')).toBe(
			'file orchestrator.ts, src/core/orchestrator.ts',
		);
		expect(await page.locator('.ask-chip').getAttribute('data-kind')).toBe('file');
	});

	it('Tab and a click pick too; Escape closes the list until the next #; stale answers are dropped', async () => {
		const page = ui.panel.page;
		await page.locator('#ask-input').click();
		await page.keyboard.type('#rea');
		await answerSearch([fileChip('README.md')]);
		await page.locator('.context-option').first().waitFor();
		await page.keyboard.press('Tab');
		expect(await chipLabels(page)).toEqual(['README.md']);

		await page.keyboard.type('and #');
		const first = await answerSearch([fileChip('a.ts')]);
		await page.keyboard.type('b');
		// The answer to '#' arrives after '#b' was asked: it is not shown.
		await ui.panel.send({
			type: 'context-results',
			requestId: first.requestId,
			items: [fileChip('stale.ts')],
		});
		expect(await page.locator('.context-option').allTextContents()).not.toContainEqual(
			expect.stringContaining('stale.ts'),
		);
		const second = await answerSearch([fileChip('b.ts'), fileChip('src/b2.ts')]);
		expect(second.query).toBe('b');
		await page.locator('.context-option', { hasText: 'b2.ts' }).click();
		expect(await chipLabels(page)).toEqual(['README.md', 'b2.ts']);
		expect(await question(page)).toBe('and ');

		await page.keyboard.type('#x');
		await answerSearch([fileChip('x.ts')]);
		await page.locator('.context-option').first().waitFor();
		await page.keyboard.press('Escape');
		expect(await page.locator('.context-completion').isHidden()).toBe(true);
		const asked = (await posted('search-context')).length;
		await page.keyboard.type('y');
		expect((await posted('search-context')).length).toBe(asked);
		expect(await question(page)).toBe('and #xy');
		// Shift+Enter with the list closed is a new line, not a pick.
		await page.keyboard.press('Shift+Enter');
		expect(await question(page)).toBe('and #xy\n');
		expect(await chipLabels(page)).toEqual(['README.md', 'b2.ts']);
		expect(await posted('ask')).toEqual([]);
	});

	it('chips from the host render with a notice; × and Backspace/Delete on a focused chip remove them', async () => {
		const page = ui.panel.page;
		await ui.panel.send({
			type: 'chips-added',
			chips: [
				fileChip('src/a.ts'),
				chip('d', 'changes', { kind: 'diff', source: 'working-tree' }, 'working-tree diff'),
				chip('p', 'problems', { kind: 'diagnostics', path: 'src/a.ts', items: [] }, '0 in src/a.ts'),
				fileChip('src/a.ts'),
				// As the context picker labels a folder.
				chip('f', 'docs', { kind: 'path', path: 'docs' }, 'folder'),
			],
			notice: 'Not attached: .env (a secret path: .env*).',
		});
		expect(await chipLabels(page)).toEqual(['a.ts', 'changes', 'problems', 'docs']);
		expect(await page.locator('.ask-notice').textContent()).toBe(
			'Not attached: .env (a secret path: .env*).',
		);
		expect(
			await page.locator('.ask-chip').evaluateAll((els) => els.map((el) => el.getAttribute('data-kind'))),
		).toEqual(['file', 'changes', 'problems', 'folder']);
		await page.getByRole('button', { name: 'Remove docs' }).click();
		await page.getByRole('button', { name: 'Remove changes' }).click();
		expect(await chipLabels(page)).toEqual(['a.ts', 'problems']);
		await page.locator('.ask-chip').first().focus();
		await page.keyboard.press('Backspace');
		expect(await chipLabels(page)).toEqual(['problems']);
		// Focus moved to the next chip: Delete removes it, and focus returns to the question.
		expect(await focused(page, 'aria-label')).toBe('problems problems, 0 in src/a.ts');
		await page.keyboard.press('Delete');
		expect(await chipLabels(page)).toEqual([]);
		expect(await page.locator('.ask-chips').isHidden()).toBe(true);
		expect(await focused(page, 'id')).toBe('ask-input');
	});

	it('the ask message carries the chips (a removed one not), and the box is empty after it', async () => {
		const page = ui.panel.page;
		await ui.panel.send({
			type: 'chips-added',
			chips: [fileChip('src/a.ts'), fileChip('README.md'), fileChip('b.ts')],
		});
		await page.getByRole('button', { name: 'Remove README.md' }).click();
		await page.locator('#ask-input').click();
		await page.keyboard.type('Why does a.ts fail?');
		await page.keyboard.press('Control+Enter');
		const [ask] = await posted<{ question: string; attachments: AttachmentChip[] }>('ask');
		expect(ask).toEqual({
			type: 'ask',
			question: 'Why does a.ts fail?',
			attachments: [
				{ id: 'c1', label: 'a.ts', detail: 'src/a.ts', request: { kind: 'path', path: 'src/a.ts' } },
				{ id: 'c3', label: 'b.ts', detail: 'b.ts', request: { kind: 'path', path: 'b.ts' } },
			],
		});
		expect(await chipLabels(page)).toEqual([]);
		await page.keyboard.type('Next question');
		await page.keyboard.press('Control+Enter');
		expect((await posted('ask'))[1]).toEqual({ type: 'ask', question: 'Next question' });
	});

	it('a question the host refused comes back with its chips and the reason; new typing is not overwritten', async () => {
		const page = ui.panel.page;
		const env = fileChip('.env');
		await ui.panel.send({
			type: 'ask-refused',
			question: 'What is in it?',
			attachments: [env],
			reason: "cannot attach '.env': refused: '.env' is a secret path",
		});
		expect(await question(page)).toBe('What is in it?');
		expect(await chipLabels(page)).toEqual(['.env']);
		expect(await page.locator('.ask-notice').textContent()).toBe(
			"Not asked: cannot attach '.env': refused: '.env' is a secret path",
		);
		await page.getByRole('button', { name: 'Remove .env' }).click();
		await page.locator('#ask-input').click();
		await page.keyboard.press('Control+Enter');
		expect(await posted('ask')).toEqual([{ type: 'ask', question: 'What is in it?' }]);
		await page.keyboard.type('Something else');
		await ui.panel.send({
			type: 'ask-refused',
			question: 'What is in it?',
			attachments: [],
			reason: 'no team config',
		});
		expect(await question(page)).toBe('Something else');
		expect(await page.locator('.ask-notice').textContent()).toBe('Not asked: no team config');
	});

	it('"+" asks the host for its picker; chips survive a reload (the panel hidden and shown)', async () => {
		const page = ui.panel.page;
		await page.getByRole('button', { name: 'Add context' }).click();
		expect(await posted('pick-context')).toEqual([{ type: 'pick-context' }]);
		await ui.panel.send({ type: 'chips-added', chips: [fileChip('src/a.ts'), fileChip('docs')] });
		await page.locator('#ask-input').click();
		await page.keyboard.type('draft');
		await page.reload();
		await waitForExpression(page, 'window.__posted.length > 0');
		ui.panel = wrapPage(page, ui.panel.consoleErrors);
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		expect(await chipLabels(page)).toEqual(['a.ts', 'docs']);
		expect(await question(page)).toBe('draft');
		await page.locator('#ask-input').click();
		await page.keyboard.press('Control+Enter');
		const [ask] = await posted<{ attachments: AttachmentChip[] }>('ask');
		expect(ask!.attachments.map((c) => c.request)).toEqual([
			{ kind: 'path', path: 'src/a.ts' },
			{ kind: 'path', path: 'docs' },
		]);
	});

	it('a pasted image becomes a chip with a thumbnail, and its PNG bytes go with the question', async () => {
		const page = ui.panel.page;
		await pngInPage(page, 40, false);
		await page.locator('#ask-input').click();
		await pastePng(page);
		await page.locator('.ask-chip img.chip-thumbnail').waitFor();
		expect(await question(page)).toBe('');
		const thumbnail = await page.locator('.chip-thumbnail').getAttribute('src');
		expect(thumbnail).toMatch(/^data:image\/png;base64,/);
		expect(await page.locator('.ask-chip').getAttribute('data-kind')).toBe('image');
		await page.keyboard.type('What is in this picture?');
		await page.keyboard.press('Control+Enter');
		const [ask] = await posted<{ attachments: AttachmentChip[] }>('ask');
		const request = ask!.attachments[0]!.request;
		expect(request.kind).toBe('image');
		if (request.kind !== 'image') return;
		expect(request.path).toBe('image.png');
		const bytes = Buffer.from(request.dataBase64, 'base64');
		expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
		// The bytes are the pasted file itself (it fits): same length as the page's blob.
		expect(bytes.byteLength).toBe(await pngSize(page));
	});

	it('an image over the room left is downscaled to fit; with no room left it is refused, with the reason', async () => {
		const page = ui.panel.page;
		// Another image already takes all but ~60 KB of the question's image budget.
		const taken = MAX_CHIP_BASE64_CHARS - 80_000;
		await ui.panel.send({
			type: 'chips-added',
			chips: [chip('big', 'big.png', { kind: 'image', path: 'big.png', dataBase64: 'A'.repeat(taken) })],
		});
		await pngInPage(page, 300, true);
		const original = await pngSize(page);
		expect(original).toBeGreaterThan(200_000);
		await page.locator('#ask-input').click();
		await pastePng(page);
		await page.locator('.ask-chip').nth(1).waitFor();
		const detail = await page.locator('.ask-chip').nth(1).getAttribute('title');
		expect(detail).toMatch(/downscaled to \d+×\d+/);
		await page.keyboard.type('Compare them');
		await page.keyboard.press('Control+Enter');
		const [ask] = await posted<{ attachments: AttachmentChip[] }>('ask');
		const request = ask!.attachments[1]!.request;
		if (request.kind !== 'image') throw new Error('not an image chip');
		const bytes = Buffer.from(request.dataBase64, 'base64');
		expect(bytes.byteLength).toBeLessThan(60_000);
		expect(taken + request.dataBase64.length).toBeLessThanOrEqual(MAX_CHIP_BASE64_CHARS);
		// Noise has no alpha to keep: JPEG.
		expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

		await ui.panel.send({
			type: 'chips-added',
			chips: [
				chip('full', 'full.png', {
					kind: 'image',
					path: 'full.png',
					dataBase64: 'A'.repeat(MAX_CHIP_BASE64_CHARS - 8),
				}),
			],
		});
		await pngInPage(page, 20, false);
		await page.locator('#ask-input').click();
		await pastePng(page);
		await page.locator('.ask-notice').waitFor();
		expect(await page.locator('.ask-notice').textContent()).toBe(
			'Not attached: image.png: the images of one question may take 5.0 MB together.',
		);
		expect(await chipLabels(page)).toEqual(['full.png']);
	});

	it('a drop from the Explorer (text/uri-list) asks the host for file chips', async () => {
		const page = ui.panel.page;
		await page.evaluate(`(() => {
			const data = new DataTransfer();
			data.setData('text/uri-list', 'file:///home/dev/app/src/a.ts\\r\\n# a comment\\r\\nfile:///home/dev/app/docs\\r\\n');
			const box = document.querySelector('.ask-box');
			box.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
			box.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
		})()`);
		expect(await posted('drop-uris')).toEqual([
			{ type: 'drop-uris', uris: ['file:///home/dev/app/src/a.ts', 'file:///home/dev/app/docs'] },
		]);
	});
});
