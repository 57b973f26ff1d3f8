/**
 * A mid-run edit survives `--apply` whichever tool showed the file: here the agents read only with
 * `run_command` (`cat`, `grep`, `head`), never `read_file`, in both scratch modes, end to end
 * through `dist/cli.js` on real bubblewrap. The user saves line 9 after every agent's `cat`; the
 * winner rewrites the whole file. The copy keeps what it showed, so the edits merge; the overlay
 * showed the live file and kept no copy, so the file is a conflict and nothing is written. Without
 * the base a command's view records, both ended with line 9 silently back to the old text.
 *
 * Deterministic: each agent's last command waits until `node_modules/.gate` says "open" (dependency
 * folders are the real ones in both modes), which the test writes only after its edit, so the
 * winner writes after the edit whatever the timing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { cliPath } from './cliProcess.js';

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const notes = lines(12);
const other = 'other 1\nother 2\n';
const team = { notes: notes.replace('line 1\n', 'line 1 (team)\n'), other: 'other 1 (team)\nother 2\n' };
const user = notes.replace('line 9\n', 'line 9 (user)\n');
// Polls a file's content, not its existence: an overlay mount caches a failed lookup, but reads
// of a file below it reach the real file.
const gate = 'until grep -q open node_modules/.gate; do sleep 0.01; done; echo gate open';

interface RunEvent {
	readonly type: string;
	readonly name?: string;
	readonly phase?: string;
	readonly scratch?: string;
	readonly text?: string;
}

function teamConfig(commands: readonly string[]): string {
	const agent = (id: string) => ({
		id,
		backend: {
			type: 'scripted',
			enable_command_execution: true,
			script: {
				coordination: [
					{
						tool_calls: [...commands, gate].map((command) => ({
							name: 'run_command',
							arguments: { command },
						})),
						answer: `${id}'s plan`,
					},
					{ vote: 'first', reason: 'fine' },
				],
				presentation: {
					edits: [
						{ path: 'notes.txt', content: team.notes },
						{ path: 'other.txt', content: team.other },
					],
					text: 'done',
				},
			},
		},
	});
	const dir = mkdtempSync(join(tmpdir(), 'massgen-cfg-'));
	const file = join(dir, 'team.yaml');
	writeFileSync(
		file,
		stringify({
			agents: [agent('alpha'), agent('beta')],
			timeout_settings: { orchestrator_timeout_seconds: 60 },
		}),
	);
	return file;
}

/** `massgen run --json --apply --yes`; `onEvent` may change the workspace as events stream. */
function runApply(root: string, config: string, scratch: Scratch, onEvent: (event: RunEvent) => void) {
	return new Promise<{ code: number | null; stderr: string; events: RunEvent[] }>((resolve, reject) => {
		const child = spawn(
			process.execPath,
			[cliPath, 'run', '--json', '--apply', '--yes', '--config', config, 'Edit the notes'],
			{
				cwd: root,
				env: {
					PATH: process.env.PATH,
					HOME: process.env.HOME,
					XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'massgen-xdg-')),
					...(scratch === 'copy' ? { MASSGEN_SCRATCH: 'copy' } : {}),
				},
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		const events: RunEvent[] = [];
		let pending = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => {
			pending += chunk.toString();
			const complete = pending.split('\n');
			pending = complete.pop()!;
			for (const line of complete) {
				const event = JSON.parse(line) as RunEvent;
				events.push(event);
				onEvent(event);
			}
		});
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stderr, events }));
	});
}

/** After every agent's first command (the `cat`): the user's edit, then the gate opens. */
function userEditsAfterCats(root: string, edit: () => void): (event: RunEvent) => void {
	let seen = 0;
	return (event) => {
		if (event.type !== 'tool-result' || event.name !== 'run_command') return;
		// Each agent's first result is its `cat`; the gate command of neither can have returned yet.
		if (++seen === 2) {
			edit();
			writeFileSync(join(root, 'node_modules', '.gate'), 'open\n');
		}
	};
}

function workspace(): string {
	const root = makeWorkspaceDir({
		'notes.txt': notes,
		'other.txt': other,
		'node_modules/dep/index.js': 'module.exports = 1;\n',
		'node_modules/.gate': 'closed\n',
	});
	execFileSync('git', ['init', '-q'], { cwd: root });
	return root;
}

function result(root: string) {
	const runs = join(root, '.massgen', 'runs');
	const dir = join(runs, readdirSync(runs)[0]!);
	return JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as {
		changes: { path: string; base: string; baseHash: string }[];
	};
}

type Scratch = 'copy' | 'overlay';
const detection = process.platform === 'linux' ? await detectSandbox() : { sandbox: null };
const overlay = detection.sandbox?.overlay !== undefined && ripgrepOnPath(process.env) !== null;
const scratches: Scratch[] = overlay ? ['copy', 'overlay'] : ['copy'];
const readers = [
	['cat notes.txt other.txt'],
	['grep -n line notes.txt; grep -n other other.txt'],
	['head -c 4096 notes.txt other.txt'],
];

describe.runIf(detection.sandbox !== null && existsSync(cliPath)).each(scratches)(
	'massgen run --apply: a file the agents saw only through a command (%s scratch)',
	(scratch) => {
		it.each(readers)(
			"the user's mid-run line 9 is never reverted (%s)",
			async (reader) => {
				const root = workspace();
				const run = await runApply(
					root,
					teamConfig([reader]),
					scratch,
					userEditsAfterCats(root, () => writeFileSync(join(root, 'notes.txt'), user)),
				);
				expect(run.events.find((event) => event.type === 'command-sandbox')?.scratch).toBe(scratch);
				const shown = run.events.filter(
					(event) => event.type === 'tool-result' && event.name === 'run_command',
				);
				expect(shown).toHaveLength(4);
				expect(shown.filter((event) => event.text?.includes('line 9')).length).toBe(2);
				const changes = result(root).changes;
				// The untouched file's base is what the agents saw, its hash that text's.
				expect(changes.find((change) => change.path === 'other.txt')).toMatchObject({
					base: other,
					baseHash: sha256(other),
				});
				if (scratch === 'copy') {
					// The copy still held what it showed: the base is the old text, and the edits merge.
					expect(run.stderr).toContain("merged your edits with the team's in notes.txt");
					expect(run.code, run.stderr).toBe(0);
					expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe(
						team.notes.replace('line 9\n', 'line 9 (user)\n'),
					);
					expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe(team.other);
					expect(changes.find((change) => change.path === 'notes.txt')).toMatchObject({
						base: notes,
						baseHash: sha256(notes),
					});
				} else {
					// The live file was shown and not kept: a conflict, nothing written, the user's text stays.
					expect(run.code, run.stderr).toBe(2);
					// The reason says what happened (the team's view was not kept), not that edits overlap:
					// the user's line 9 and the team's line 1 do not.
					expect(run.stderr).toContain(
						'not applied: notes.txt: the team saw it only through a command, its view of the file was not kept, and the file has changed since: compare and accept it by hand',
					);
					expect(run.stderr).not.toContain('overlap');
					expect(run.stderr).toContain('nothing was written');
					expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe(user);
					expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe(other);
					expect(changes.find((change) => change.path === 'notes.txt')?.baseHash).not.toBe(sha256(user));
				}
			},
			60_000,
		);

		it('control: without the user’s edit, --apply writes the winner’s text to both files', async () => {
			const root = workspace();
			const run = await runApply(
				root,
				teamConfig(readers[0]!),
				scratch,
				userEditsAfterCats(root, () => {}),
			);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stderr).toContain('applied 2 change(s)');
			expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe(team.notes);
			expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe(team.other);
			expect(result(root).changes.find((change) => change.path === 'notes.txt')).toMatchObject({
				base: notes,
				baseHash: sha256(notes),
			});
		}, 60_000);
	},
);
