import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/**
 * `npx tsx test/scripts/renderIcon.ts`: renders media/icon.svg to media/icon.png (128×128, transparent
 * corners), the marketplace icon, which must be a PNG. Uses the Chromium the e2e tests use, so no image
 * library is needed.
 */
async function main(): Promise<void> {
	const media = join(__dirname, '..', '..', 'media');
	const svg = readFileSync(join(media, 'icon.svg'), 'utf8');
	const browser = await chromium.launch({
		executablePath: process.env.MASSGEN_CHROMIUM || '/usr/bin/chromium',
		args: ['--headless', '--no-sandbox', '--disable-gpu'],
	});
	try {
		const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
		await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
		const target = join(media, 'icon.png');
		await page.locator('svg').screenshot({ path: target, omitBackground: true });
		process.stdout.write(`wrote ${target}\n`);
	} finally {
		await browser.close();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
});
