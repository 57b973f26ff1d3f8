/**
 * `--comments FILE` as a hostile file may shape it (the user names the file, but it may come from a
 * repository or a script): a FIFO never blocks the CLI, a YAML alias bomb and a number past the
 * integers are the file's errors with its name (not an internal error), and no key beyond the four
 * is taken (`__proto__` included).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommentsFileError, readCommentsFile } from '../../../src/cli/commentsFile.js';
import { makeTree } from '../../support/tempTree.js';

async function problem(file: string): Promise<string> {
	const error = await readCommentsFile(file).then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error, String(error)).toBeInstanceOf(CommentsFileError);
	return (error as Error).message;
}

describe('a hostile --comments file', () => {
	it('is refused as the file’s problem: a FIFO unread, an alias bomb, a huge number, an extra key', async () => {
		const root = await makeTree({});
		const fifo = join(root, 'fifo.yaml');
		execFileSync('mkfifo', [fifo]);
		expect(await problem(fifo)).toBe(`${fifo}: cannot read it (ENOTREGULAR)`);

		const file = join(root, 'comments.yaml');
		const letter = (i: number) => String.fromCharCode(97 + i);
		const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
		for (let i = 1; i < 9; i++) {
			bomb.push(
				`${letter(i)}: &${letter(i)} [${Array(10)
					.fill(`*${letter(i - 1)}`)
					.join(', ')}]`,
			);
		}
		writeFileSync(file, bomb.join('\n'));
		// Before: a ReferenceError the CLI reported as 'massgen: internal error'.
		expect(await problem(file)).toMatch(new RegExp(`^${file}: Excessive alias count`));

		writeFileSync(file, '- {path: a.ts, line: 1e400, text: x}\n');
		expect(await problem(file)).toContain(`${file}:1:22: `);
		writeFileSync(file, '[{"path":"a.ts","line":1,"text":"x","__proto__":{"polluted":1}}]');
		expect(await problem(file)).toContain('Unrecognized key: "__proto__"');
		expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
	});
});
