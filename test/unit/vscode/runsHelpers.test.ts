import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ignoresMassgen } from '../../../src/vscode/pastRuns/gitignoreOffer.js';
import { recordedAttachments, rerunAttachments } from '../../../src/vscode/pastRuns/rerunRequest.js';

describe('ignoresMassgen', () => {
	it('sees the usual ways of ignoring a top-level .massgen folder, and nothing else', () => {
		for (const line of ['.massgen', '.massgen/', '/.massgen/', '  /.massgen  ', '.massgen/**']) {
			expect(ignoresMassgen(`node_modules/\n${line}\ndist/`), line).toBe(true);
		}
		for (const text of ['', 'node_modules/', '# .massgen/', '.massgen-old/', 'src/.massgen/', '!.massgen/']) {
			expect(ignoresMassgen(text), text).toBe(false);
		}
	});
});

describe('re-run attachments', () => {
	const record = { bytes: 1, sha256: 'x' };

	it('paths, ranges and diffs are asked for again; contents that were not kept are named as left out', () => {
		expect(
			rerunAttachments([
				{ kind: 'file', source: 'src/a.ts', lines: { start: 3, end: 9 }, ...record },
				{ kind: 'file', source: 'src/b.ts', ...record },
				{ kind: 'folder', source: 'docs', ...record },
				{ kind: 'image', source: 'shot.png', mediaType: 'image/png', ...record },
				{ kind: 'diff', source: 'staged', ...record },
				{ kind: 'diagnostics', source: 'src/a.ts', ...record },
				{ kind: 'terminal', source: 'bash', ...record },
				{ kind: 'text', source: 'stdin', ...record },
			]),
		).toEqual({
			requests: [
				{ kind: 'file', path: 'src/a.ts', range: { start: 3, end: 9 } },
				{ kind: 'file', path: 'src/b.ts' },
				{ kind: 'path', path: 'docs' },
				{ kind: 'path', path: 'shot.png' },
				{ kind: 'diff', source: 'staged' },
			],
			leftOut: ['diagnostics: src/a.ts', 'terminal: bash', 'text: stdin'],
		});
	});

	let dir: string | undefined;
	afterEach(async () => {
		if (dir) await rm(dir, { recursive: true, force: true });
	});

	it('reads them from the run-start line of events.jsonl only', async () => {
		dir = await mkdtemp(join(tmpdir(), 'massgen-rerun-'));
		await mkdir(dir, { recursive: true });
		const start = {
			type: 'run-start',
			runId: 'r',
			seq: 0,
			t: 0,
			question: 'q',
			workspace: dir,
			agents: [],
			attachments: [{ kind: 'folder', source: 'docs', ...record }],
		};
		await writeFile(join(dir, 'events.jsonl'), `${JSON.stringify(start)}\n{not json`);
		expect(await recordedAttachments(dir)).toEqual([{ kind: 'folder', source: 'docs', ...record }]);
		await writeFile(join(dir, 'events.jsonl'), '');
		expect(await recordedAttachments(dir)).toEqual([]);
	});
});
