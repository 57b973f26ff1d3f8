/**
 * Issue 9 item 4, end to end through dist/cli.js: nothing a model or a config asks for can freeze
 * or exhaust the engine. Each case used to hang until SIGKILL or write hundreds of MB.
 */
import { existsSync, readdirSync, readFileSync, symlinkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { fixture, runCli } from './cliProcess.js';

interface LoggedEvent {
	readonly type: string;
	readonly t: number;
	readonly callId?: string;
	readonly name?: string;
	readonly text?: string;
	readonly isError?: boolean;
}

/** The tool's own walker, not ripgrep: these cases test how it keeps the engine responsive. */
const walker = { MASSGEN_RIPGREP: 'none' };

/** 40 files of 500,000 short lines: a search over `data/` is busy for many seconds. */
function busyWorkspace(): string {
	const lines = 'a\n'.repeat(500_000);
	return makeWorkspaceDir(
		Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`data/f${i}.txt`, lines])),
	);
}

function onlyRunDir(root: string): string {
	const runs = readdirSync(join(root, '.massgen', 'runs'));
	expect(runs).toHaveLength(1);
	return join(root, '.massgen', 'runs', runs[0]!);
}

function events(dir: string): LoggedEvent[] {
	return readFileSync(join(dir, 'events.jsonl'), 'utf8')
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as LoggedEvent);
}

/** Each tool call's result and how long after the call it came, in order. */
function toolResults(list: readonly LoggedEvent[]): { text: string; isError: boolean; ms: number }[] {
	return list
		.filter((event) => event.type === 'tool-result')
		.map((result) => {
			const call = list.find((event) => event.type === 'tool-call' && event.callId === result.callId)!;
			return { text: result.text!, isError: result.isError!, ms: result.t - call.t };
		});
}

describe('massgen CLI: no tool call or config freezes the engine', () => {
	it('a catastrophic regex answers in seconds, not minutes, and the run completes with result.json', async () => {
		// 2,000 adversarial lines: RegExp needs ~minutes for one of them.
		const evil = `${'a'.repeat(41)}!\n`.repeat(2000);
		const root = makeWorkspaceDir({ 'evil.txt': evil, 'src/x.ts': 'const needle = 1;\n' });
		const started = Date.now();
		const run = await runCli(['run', '--config', fixture('freeze-regex.yaml'), 'search'], { cwd: root });
		expect(run.code).toBe(0);
		expect(Date.now() - started).toBeLessThan(20_000);
		const dir = onlyRunDir(root);
		expect(JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')).status).toBe('completed');
		const results = toolResults(events(dir));
		expect(results.map(({ text, isError }) => [text.split('\n')[0], isError])).toEqual([
			['no matches for /^(a+)+$/ in the workspace', false],
			["no matches for /(a|aa)+$/ in 'evil.txt'", false],
			[
				expect.stringMatching(
					/^search_files: invalid regular expression \/\(a\)\\1\/: backreferences .* not supported/,
				),
				true,
			],
			['src/x.ts:1: const needle = 1;', false],
		]);
		// Tens of ms alone; the bound leaves room for a loaded CI machine, far under RegExp's minutes.
		for (const { ms } of results) expect(ms).toBeLessThan(3000);
	}, 60_000);

	it('symlink loops and a 1,500-deep tree: the search finishes with the cut message', async () => {
		const root = makeWorkspaceDir({ 'src/x.ts': 'const needle = 1;\n' });
		symlinkSync('.', join(root, 'a'));
		symlinkSync('.', join(root, 'b'));
		const deep = join(root, ...Array.from({ length: 1500 }, () => 'd'));
		mkdirSync(deep, { recursive: true });
		writeFileSync(join(deep, 'bottom.ts'), 'needle\n');
		const run = await runCli(['run', '--config', fixture('freeze-regex.yaml'), 'search'], {
			cwd: root,
			env: walker,
		});
		expect(run.code).toBe(0);
		const needle = toolResults(events(onlyRunDir(root)))[3]!;
		expect(needle.text).toBe(
			'src/x.ts:1: const needle = 1;\n(search cut: ' +
				`skipped folders more than 64 levels deep, e.g. '${Array(65).fill('d').join('/')}'; ` +
				"did not follow 2 linked folder(s): name one in 'path' to search it; narrow the search with 'path')",
		);
		expect(needle.ms).toBeLessThan(5000);
	}, 60_000);

	it('SIGINT ends a run within 2 s while a tool is busy: exit 4, partial log kept', async () => {
		const root = busyWorkspace();
		let sentAt = 0;
		const run = await runCli(['run', '--config', fixture('freeze-busy.yaml'), 'search'], {
			cwd: root,
			env: walker,
			onStderr: (text, child) => {
				// The tool is running by then (the scripted call is instant); interrupt it mid-search.
				if (sentAt === 0 && text.includes('round 1')) {
					sentAt = -1;
					setTimeout(() => {
						sentAt = Date.now();
						child.kill('SIGINT');
					}, 1500);
				}
			},
		});
		const ended = Date.now();
		expect(sentAt).toBeGreaterThan(0);
		expect(ended - sentAt).toBeLessThan(2000);
		expect(run.code).toBe(4);
		const dir = onlyRunDir(root);
		expect(JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')).status).toBe('cancelled');
		const logged = events(dir);
		expect(logged.find((event) => event.type === 'tool-call')).toMatchObject({ name: 'search_files' });
		// The search was still going when SIGINT came (it would take far longer than 1.5 s).
		expect(toolResults(logged)).toEqual([
			{ text: 'search_files: cancelled', isError: true, ms: expect.any(Number) },
		]);
	}, 60_000);

	it('the coordination timeout fires while a tool is busy: exit 3', async () => {
		const root = busyWorkspace();
		const started = Date.now();
		const run = await runCli(['run', '--timeout', '1', '--config', fixture('freeze-busy.yaml'), 'search'], {
			cwd: root,
			env: walker,
		});
		// Startup, one second of coordination, then the log: far below the minute the search needs.
		expect(Date.now() - started).toBeLessThan(4000);
		expect(run.code).toBe(3);
		const dir = onlyRunDir(root);
		expect(JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')).status).toBe('timeout');
		expect(toolResults(events(dir))).toEqual([
			{ text: 'search_files: cancelled', isError: true, ms: expect.any(Number) },
		]);
	}, 60_000);

	it('a 1 MB config with 300 aliases: a clear error, no run directory, nothing huge written', async () => {
		const root = makeWorkspaceDir();
		const config = join(root, 'bomb.yaml');
		const copies = Array(300).fill('*big').join(', ');
		writeFileSync(
			config,
			`x-big: &big "${'x'.repeat(900_000)}"\nx-copies: [${copies}]\nagents:\n  - backend: { type: scripted, script: { coordination: [{ answer: hi }] } }\n`,
		);
		const run = await runCli(['run', '--config', config, 'hi'], { cwd: root });
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(
			`${config}:2:18: error: YAML aliases expand the config past 2 MiB at '*big'`,
		);
		expect(run.stderr.length).toBeLessThan(10_000);
		expect(existsSync(join(root, '.massgen'))).toBe(false);
	}, 60_000);
});
