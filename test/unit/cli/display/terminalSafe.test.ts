/**
 * The CLI's one terminal sanitiser: what a model, a repository or an old run directory wrote
 * reaches a terminal with every control visible, and reaches a pipe byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { rawTerminal, terminalSafe } from '../../../../src/cli/display/terminalStream.js';
import { visibleCommand, visibleControls } from '../../../../src/protocol/visibleText.js';
import { redactedIo } from '../../../../src/cli/redactedIo.js';
import { Redactor } from '../../../../src/core/secrets/redactor.js';
import { FakeStream } from './fakeStream.js';

const hostile = [
	'\u001b]52;c;cm0gLXJmIH4K\u0007', // OSC 52: writes the clipboard
	'\u001b]0;owned\u001b\\', // OSC 0: retitles the window
	'\u001b[2J\u001b[H', // clears the screen
	'\u001bP1$r\u001b\\', // DCS
	'\u001b_apc\u001b\\', // APC
	'\u009b2J', // 8-bit CSI
	'\u009d0;t\u009c', // 8-bit OSC … ST
	'a\rb', // a lone carriage return overwrites the line
	'\u001b[1A\u001b[2K', // cursor up, erase line
	'\u202eevil\u202c', // bidi override (Trojan Source)
	'\u2066x\u2069', // bidi isolate
	'zero\u200bwidth\ufeff',
	'\u0007\u0008\u007f',
].join('|');

describe('visibleControls', () => {
	it('shows every control and bidi character visibly: no ESC, C1 or override is left', () => {
		const out = visibleControls(hostile);

		expect(out).not.toMatch(
			/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b\ufeff]/,
		);
		expect(out).toContain('␛]52;c;cm0gLXJmIH4K␇');
		expect(out).toContain('␛[2J␛[H');
		expect(out).toContain('<U+009B>2J');
		expect(out).toContain('a␍b');
		expect(out).toContain('<U+202E>evil<U+202C>');
		expect(out).toContain('<U+2066>x<U+2069>');
		expect(out).toContain('zero<U+200B>width<U+FEFF>');
	});

	it('control: plain text, newlines, tabs, CRLF, accents, CJK, emoji with joiners and Persian ZWNJ are unchanged', () => {
		const plain = 'Line one\n\tindented — naïve 漢字\r\nfamily 👨‍👩‍👧 flag 🏴󠁧󠁢󠁳󠁣󠁴󠁿 می‌خواهم\n';
		expect(visibleControls(plain)).toBe(plain);
	});

	it('a command to approve shows every invisible character, joiners and CR included', () => {
		expect(visibleCommand('rm -rf ~\r\u001b[2Kls -la')).toBe('rm -rf ~␍␛[2Kls -la');
		expect(visibleCommand('l\u200ds\u2028x\u00ad')).toBe('l<U+200D>s<U+2028>x<U+00AD>');
		expect(visibleCommand('a\n\tb')).toBe('a\n\tb');
	});
});

describe('terminalSafe', () => {
	it('on a terminal every write is made visible (strings and buffers)', () => {
		const tty = new FakeStream(true);
		const safe = terminalSafe(tty as unknown as NodeJS.WriteStream);
		safe.write(hostile);
		safe.write(Buffer.from('\u001b[2J'));
		expect(tty.text).not.toContain('\u001b');
		expect(tty.text).not.toContain('\u009b');
		expect(tty.text).toContain('␛[2J');
	});

	it('control: to a pipe the bytes pass as they are (the output is data)', () => {
		const pipe = new FakeStream(false);
		terminalSafe(pipe as unknown as NodeJS.WriteStream).write(hostile);
		expect(pipe.text).toBe(hostile);
	});

	it('the raw terminal under it (for the CLI’s own drawing) stays redacted through redactedIo', () => {
		const tty = new FakeStream(true);
		const safe = terminalSafe(tty as unknown as NodeJS.WriteStream);
		const io = redactedIo(
			{ stdout: safe, stderr: safe, env: {}, signal: new AbortController().signal },
			() => new Redactor(['sk-secret-value-1234']),
		);
		rawTerminal(io.stderr).write('\u001b[1A key sk-secret-value-1234\n');
		io.stderr.write('\u001b[1A key sk-secret-value-1234\n');
		const [raw, safeWrite] = tty.chunks;
		expect(raw).toContain('\u001b[1A');
		expect(raw).not.toContain('sk-secret-value-1234');
		expect(safeWrite).toContain('␛[1A');
		expect(safeWrite).not.toContain('sk-secret-value-1234');
		// No wrapper: the stream itself.
		expect(rawTerminal(tty)).toBe(tty);
	});
});

describe('visibleControls over every code point', () => {
	const everyCodePoint: string[] = [];
	for (let code = 0; code <= 0x10ffff; code++) {
		if (code < 0xd800 || code > 0xdfff) everyCodePoint.push(String.fromCodePoint(code));
	}

	const leftOver =
		/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

	it('each one alone: no control, bidi or invisible character is left, every other one is unchanged', () => {
		let changed = 0;
		for (const char of everyCodePoint) {
			const out = visibleControls(char);
			if (leftOver.test(out)) throw new Error(`U+${char.codePointAt(0)!.toString(16)} got through`);
			if (out !== char) changed++;
			else if (leftOver.test(char)) throw new Error(`U+${char.codePointAt(0)!.toString(16)} unchanged`);
		}
		// 30 C0 (all but \n and \t) + DEL + 32 C1 + 20 bidi and invisible characters.
		expect(changed).toBe(30 + 1 + 32 + 20);
	});

	it('a command to approve: only \\n and \\t of all controls, separators and format characters stay', () => {
		const out = visibleCommand(everyCodePoint.join(''));

		expect(out.replace(/[\n\t]/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u);
	});
});
