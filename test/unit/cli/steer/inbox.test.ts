/**
 * The steering inbox on a real folder: messages delivered in name order and moved to delivered/,
 * refusals moved to refused/, and every hostile entry (link out, FIFO, folder, hard link, huge or
 * binary file, control characters in the name) refused with its reason, never followed, opened
 * blocking or lost. The poll runs on a manual clock.
 */
import { execFileSync } from 'node:child_process';
import {
	existsSync,
	linkSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Inbox, prepareInbox } from '../../../../src/cli/steer/inbox.js';
import { maxInboxBytes } from '../../../../src/cli/steer/inboxEntry.js';
import type { SteerReport } from '../../../../src/cli/steer/sendSteer.js';
import { ManualClock } from '../../../support/manualClock.js';
import { makeWorkspaceDir } from '../../../support/tempTree.js';

async function inboxAt(decide: (text: string) => SteerReport = () => ({ ok: true, text: 'sent' })) {
	const prepared = await prepareInbox(join(makeWorkspaceDir(), 'inbox'));
	if (!prepared.ok) throw new Error(prepared.reason);
	const delivered: string[] = [];
	const reports: string[] = [];
	const clock = new ManualClock();
	const inbox = new Inbox(prepared.dir, {
		deliver: (text) => {
			delivered.push(text);
			return decide(text);
		},
		report: (line) => reports.push(line),
		clock,
		pollMs: 500,
		watch: false,
	});
	return { dir: prepared.dir, inbox, delivered, reports, clock };
}

describe('the steering inbox (massgen run --inbox)', () => {
	it('delivers each file once, in name order, and moves it to delivered/; dot-names wait', async () => {
		const { dir, inbox, delivered, reports } = await inboxAt();
		writeFileSync(join(dir, '002'), 'second');
		writeFileSync(join(dir, '001'), '@a first');
		writeFileSync(join(dir, '.003.partial'), 'still being written');
		await inbox.scan();
		expect(delivered).toEqual(['@a first', 'second']);
		expect(readdirSync(join(dir, 'delivered')).sort()).toEqual(['001', '002']);
		expect(reports).toEqual([
			'inbox 001: sent (moved to delivered/)',
			'inbox 002: sent (moved to delivered/)',
		]);
		expect(existsSync(join(dir, '.003.partial'))).toBe(true);
		// Renamed into place: taken; a second file of the same name keeps the first in delivered/.
		execFileSync('mv', [join(dir, '.003.partial'), join(dir, '001')]);
		await inbox.scan();
		expect(delivered.at(-1)).toBe('still being written');
		expect(readFileSync(join(dir, 'delivered', '001.1'), 'utf8')).toBe('still being written');
		expect(readFileSync(join(dir, 'delivered', '001'), 'utf8')).toBe('@a first');
	});

	it('a message the run refuses moves to refused/ with the reason on stderr', async () => {
		const { dir, inbox, reports } = await inboxAt(() => ({ ok: false, text: 'refused: no agent zed' }));
		writeFileSync(join(dir, 'm'), '@zed hi');
		await inbox.scan();
		expect(readFileSync(join(dir, 'refused', 'm'), 'utf8')).toBe('@zed hi');
		expect(reports).toEqual(['inbox m: refused: no agent zed (moved to refused/)']);
	});

	it('hostile entries are refused with a reason, moved aside unopened, and never delivered', async () => {
		const { dir, inbox, delivered, reports } = await inboxAt();
		const outside = makeWorkspaceDir({ 'secret.txt': 'TOKEN=hunter2' });
		symlinkSync(join(outside, 'secret.txt'), join(dir, 'link'));
		linkSync(join(outside, 'secret.txt'), join(dir, 'hardlink'));
		execFileSync('mkfifo', [join(dir, 'fifo')]);
		mkdirSync(join(dir, 'folder'));
		writeFileSync(join(dir, 'huge'), 'x'.repeat(maxInboxBytes + 1));
		writeFileSync(join(dir, 'binary'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
		writeFileSync(join(dir, 'nul'), 'a\u0000b');
		writeFileSync(join(dir, 'bell\u0007\u001b[2J'), 'hello');
		// The scan ends (a FIFO opened for reading would block it forever).
		await inbox.scan();
		expect(delivered).toEqual([]);
		expect(reports.sort()).toEqual(
			[
				'inbox binary: refused: it is not UTF-8 text (moved to refused/)',
				'inbox bell\\u{7}\\u{1b}[2J: refused: its name has control characters (moved to refused/)',
				'inbox fifo: refused: not a regular file (a FIFO, socket or device) (moved to refused/)',
				'inbox folder: refused: a folder (moved to refused/)',
				'inbox hardlink: refused: it has other names (hard links): not read (moved to refused/)',
				`inbox huge: refused: it has ${maxInboxBytes + 1} bytes; at most ${maxInboxBytes} (moved to refused/)`,
				'inbox link: refused: a symbolic link (links are not followed) (moved to refused/)',
				'inbox nul: refused: it is not text (NUL bytes) (moved to refused/)',
			].sort(),
		);
		expect(readdirSync(join(dir, 'refused'))).toHaveLength(8);
		expect(readdirSync(dir).sort()).toEqual(['delivered', 'refused']);
		// The link moved as a link; what it pointed at is where it was, untouched.
		expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('TOKEN=hunter2');
	});

	it('without a watch, the poll on the run clock takes a new file', async () => {
		const { dir, inbox, delivered, clock } = await inboxAt();
		inbox.start();
		await clock.advance(0);
		writeFileSync(join(dir, 'later'), 'use the cache');
		await clock.advance(499);
		expect(delivered).toEqual([]);
		await clock.advance(1);
		await inbox.scan();
		expect(delivered).toEqual(['use the cache']);
		await inbox.stop();
		writeFileSync(join(dir, 'after'), 'too late');
		await clock.advance(5_000);
		expect(clock.pending).toBe(0);
		expect(existsSync(join(dir, 'after'))).toBe(true);
	});

	it('an inbox folder that goes away is reported once, not at every poll', async () => {
		const { dir, inbox, reports, clock } = await inboxAt();
		inbox.start();
		await clock.advance(0);
		rmSync(dir, { recursive: true });
		await clock.advance(500);
		await inbox.scan();
		await clock.advance(500);
		await inbox.scan();
		expect(reports).toHaveLength(1);
		expect(reports[0]).toMatch(/^inbox: cannot read .*: ENOENT/);
		await inbox.stop();
	});

	it('an inbox whose delivered/ is a link, or that is a file, is not used', async () => {
		const parent = makeWorkspaceDir({ file: 'x' });
		expect(await prepareInbox(join(parent, 'file'))).toMatchObject({ ok: false });
		mkdirSync(join(parent, 'box'));
		symlinkSync(makeWorkspaceDir(), join(parent, 'box', 'delivered'));
		expect(await prepareInbox(join(parent, 'box'))).toEqual({
			ok: false,
			reason: `${join(parent, 'box', 'delivered')} is not a folder (a link or a file)`,
		});
	});
});
