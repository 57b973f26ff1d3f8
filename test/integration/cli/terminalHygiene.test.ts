/**
 * Model text on the user's terminal, end to end through `dist/cli.js` on a pseudo-terminal: a
 * scripted answer carrying a clipboard write (OSC 52), a retitle (OSC 0), a screen clear, an 8-bit
 * CSI and a bidi override reaches the terminal with every control shown visibly — in the final
 * answer, `show`, `show --markdown` and `runs` — and the approval prompt shows a disguised command
 * whole. Control: plain lines arrive unchanged, and piped output keeps the model's bytes.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';
import { startOnPty } from './ptyProcess.js';

const attack = {
	clipboard: '\u001b]52;c;cm0gLXJmIH4K\u0007',
	title: '\u001b]0;pwned-title\u001b\\',
	clear: '\u001b[2J\u001b[H',
	csi8: '\u009b31m',
	bidi: 'access\u202e ,nimda\u202c',
};
const answer = `plain line one\nplain line two\n${Object.values(attack).join(' ')}\nlast plain line`;
const shown = [
	'␛]52;c;cm0gLXJmIH4K␇',
	'␛]0;pwned-title␛\\',
	'␛[2J␛[H',
	'<U+009B>31m',
	'<U+202E> ,nimda<U+202C>',
];
/** What must never reach the terminal as it is (the live table's own cursor moves aside). */
const raw = ['\u001b]52', '\u001b]0;', '\u001b[2J', '\u009b', '\u202e', '\u202c'];

function config(steps: Record<string, unknown>[]): string {
	const file = join(mkdtempSync(join(tmpdir(), 'massgen-hygiene-cfg-')), 'team.yaml');
	writeFileSync(
		file,
		stringify({
			agents: [
				{
					id: 'writer',
					backend: {
						type: 'scripted',
						enable_command_execution: true,
						script: { coordination: steps, presentation: { text: answer } },
					},
				},
				// A second member (with one, the run skips coordination and its tool calls); either may win.
				{
					id: 'checker',
					backend: {
						type: 'scripted',
						script: { coordination: [{ answer }, { vote: 'first' }], presentation: { text: answer } },
					},
				},
			],
		}),
	);
	return file;
}

async function onPty(args: string[], cwd: string): Promise<string> {
	const session = startOnPty(args, { cwd });
	const code = await session.exited;
	expect(code, session.output()).toBe(0);
	return session.output();
}

function expectNeutralised(output: string): void {
	for (const sequence of raw) expect(output).not.toContain(sequence);
	for (const visible of shown) expect(output).toContain(visible);
	// Control: the plain lines arrive unchanged (the terminal turns \n into \r\n).
	expect(output).toContain('plain line one\r\nplain line two\r\n');
}

describe('massgen on a terminal: model text never arrives as control sequences', () => {
	it('run, show, show --markdown and runs show controls visibly; piped, the bytes are kept', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# hi\n' });
		const team = config([{ answer }, { vote: 'first' }]);
		const question = `What now?${attack.title}`;
		const run = await onPty(['run', '--deny-all', '--config', team, question], root);

		expectNeutralised(run.slice(run.indexOf('run log:')));
		const [runId] = readdirSync(join(root, '.massgen', 'runs'));

		for (const args of [
			['show', runId!],
			['show', '--markdown', runId!],
		]) {
			const output = await onPty(args, root);
			expect(output).not.toContain('\u001b');
			expectNeutralised(output);
		}
		const runs = await onPty(['runs'], root);
		expect(runs).toContain(runId);
		expect(runs).toContain('What now?␛]0;pwned-title␛\\');
		expect(runs).not.toContain('\u001b');

		// --json on a terminal: JSON escapes C0 itself; C1 and bidi characters are made visible too.
		const json = await onPty(['run', '--deny-all', '--json', '--config', team, 'Again'], root);
		for (const sequence of raw) expect(json).not.toContain(sequence);
		expect(json).toContain('\\u001b]52;c;');

		// Control: into a pipe or a file the answer is data, byte for byte.
		const piped = await runCli(['show', runId!], { cwd: root });
		expect(piped.stdout).toContain(answer);
		const listed = await runCli(['runs', '--json'], { cwd: root });
		expect(JSON.parse(listed.stdout).runs.map((r: { question: string }) => r.question)).toContain(question);
	}, 60_000);

	it('the approval prompt shows a disguised command visibly and whole', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# hi\n' });
		const tail = '; echo the-hidden-tail';
		const command = `rm -rf ./nothing-here\r\u001b[2K\u001b[1Als -la${' '.repeat(300)}${tail}`;
		const team = config([
			{ tool_calls: [{ name: 'run_command', arguments: { command } }], answer },
			{ vote: 'first' },
		]);
		const session = startOnPty(['run', '--config', team, 'List the files'], { cwd: root });
		const asked = await session.waitFor('[n] deny');
		const prompt = session.output().slice(0, asked);
		expect(prompt).toContain('rm -rf ./nothing-here␍␛[2K␛[1Als -la');
		expect(prompt).toContain(tail);
		expect(prompt).not.toContain('\r\u001b[2K\u001b[1Als');
		session.type('n\r');
		expect(await session.exited).toBe(0);
	}, 60_000);
});
