// In-host: the Team view's Stats row over run directories this machine made (written by the real
// run log writer, accepts and reverts by the real changes-log appender), the same figures the core
// computes for them; Show Team Stats' report; Suggest a Team writing nothing when declined and a
// valid team when a place is picked; Build Team offering the suggestion first.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { runsDir } from '../../src/contract/runLayout';
import { loadConfigText } from '../../src/core/config/loadConfig';
import { leaderboard, type Leaderboard, type StatsRow } from '../../src/core/stats/leaderboard';
import { readRunFacts } from '../../src/core/stats/runFacts';
import { statsReport } from '../../src/core/stats/statsReport';
import { suggestTeam } from '../../src/core/stats/suggestTeam';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { TeamNode } from '../../src/vscode/team/teamTree';
import { userTeamFile } from '../../src/vscode/team/teamBuilder';
import { hashFiles } from '../support/tempTree';
import { accept, plantRun, reject, revert, writeRun, type PlannedAgent } from '../unit/stats/statsRuns';
import { endRunAndConfig, until, useConfig, workspaceRoot } from './hostWaits';

/** A local model server (OpenAI-compatible) that lists `models`; the builder finds it on its usual port. */
function modelList(models: string[]): Server {
	return createServer((req, res) => {
		if (req.url !== '/v1/models') return void res.writeHead(404).end();
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }));
	});
}
const listen = (server: Server, port: number) =>
	new Promise<number>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
	});
const close = (server: Server) =>
	new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done())));

type Step = [string, vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox];

describe('Team view Stats, Show Team Stats and Suggest a Team (in VS Code)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let server: Server | undefined;
	/** The local server's backend type (the first usual port that was free). */
	let type = '';
	let dir: string;
	const root = () => workspaceRoot();
	/** The earlier suites' runs, kept aside meanwhile: the board is this suite's runs alone. */
	const aside = () => join(root(), '.massgen', 'runs.stats-test');
	const model = (name: string) => `${type}/${name}`;
	const config = () => join(root(), '.massgen', 'config.yaml');
	const backup = () => `${config()}.stats-test`;
	/** Everything a write could touch: the folder (outside the runs), the user's team file, the setting. */
	const written = () => ({
		folder: hashFiles(root(), { skip: (rel) => rel === '.massgen/runs' }),
		user: existsSync(userTeamFile()) ? readFileSync(userTeamFile(), 'utf8') : null,
		setting: vscode.workspace.getConfiguration().get('massgen.config'),
	});
	const board = async (): Promise<Leaderboard> => leaderboard(await readRunFacts(root()));
	const rowOf = (of: Leaderboard, name: string): StatsRow => {
		const row = of.models.find((candidate) => candidate.label === model(name));
		assert.ok(row, `a row for ${model(name)} in ${of.models.map((r) => r.label).join(', ')}`);
		return row;
	};
	const statsNode = async () => {
		api.teamView.provider.refreshStats();
		const nodes = (await api.teamView.provider.getChildren()) as TeamNode[];
		const node = nodes.at(-1);
		assert.ok(node?.kind === 'stats', `the last row is Stats (${nodes.map((n) => n.kind).join(', ')})`);
		return node;
	};

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		dir = mkdtempSync(join(tmpdir(), 'massgen-stats-'));
		for (const [name, port] of [
			['ollama', 11434],
			['lmstudio', 1234],
			['vllm', 8000],
			['sglang', 30000],
		] as const) {
			const candidate = modelList(['stats-alpha', 'stats-beta']);
			try {
				await listen(candidate, port);
				server = candidate;
				type = name;
				break;
			} catch {
				await close(candidate).catch(() => undefined);
			}
		}
		assert.ok(server, 'one of the usual local-server ports is free');
		if (existsSync(runsDir(root()))) renameSync(runsDir(root()), aside());
		// Three models: alpha and beta ranked (every winning change accepted), gamma with too few runs.
		const alpha = (extra: Partial<PlannedAgent> = {}): PlannedAgent => ({
			id: 'a',
			provider: type,
			model: 'stats-alpha',
			costUsd: 0.002,
			...extra,
		});
		const beta = (extra: Partial<PlannedAgent> = {}): PlannedAgent => ({
			id: 'b',
			provider: type,
			model: 'stats-beta',
			costUsd: 0.01,
			...extra,
		});
		const gamma: PlannedAgent = { id: 'c', provider: type, model: 'stats-gamma', costUsd: 0.001 };
		const run = async (
			n: number,
			agents: PlannedAgent[],
			winner: string,
			changed: string[] = ['notes.md'],
		) => {
			const runDir = await writeRun(root(), process.env, {
				runId: `20261120-10000${n}-stat`,
				agents,
				winner,
				changed,
				durationMs: 2000,
			});
			return runDir;
		};
		for (const n of [1, 2, 3]) {
			await accept(await run(n, [alpha({ votedFor: 'a' }), beta({ votedFor: 'a' })], 'a'), ['notes.md']);
		}
		// Accepted with one of beta's hunks: partly, and a runner-up hunk taken from beta.
		await accept(await run(4, [alpha({ votedFor: 'a' }), beta({ votedFor: 'b' })], 'a'), ['notes.md'], {
			partial: true,
			runnerUpHunks: [{ path: 'notes.md', from: ['b'] }],
		});
		for (const n of [5, 6]) {
			await accept(await run(n, [alpha({ votedFor: 'b' }), beta({ votedFor: 'b' })], 'b'), ['notes.md']);
		}
		await reject(await run(7, [alpha(), gamma], 'c'), ['notes.md']);
		const reverted = await run(8, [alpha(), gamma], 'c');
		await accept(reverted, ['notes.md']);
		await revert(reverted, ['notes.md']);
		await run(9, [alpha(), gamma], 'c', []);
		// A run folder that came with the repository, alpha winning it: never counted.
		await plantRun(root(), { runId: '20261120-100010-stat', agents: [alpha()], winner: 'a' });
	});

	after(async () => {
		rmSync(runsDir(root()), { recursive: true, force: true });
		if (existsSync(aside())) renameSync(aside(), runsDir(root()));
		if (existsSync(backup())) renameSync(backup(), config());
		if (server) await close(server);
		await endRunAndConfig(api);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(dir, { recursive: true, force: true });
		api.teamView.provider.refresh();
	});

	it('the Stats row and a row per model show the figures the core computes for the runs; a planted run is not counted', async () => {
		const now = await board();
		// The core's figures for the generated runs, as they were made.
		const alpha = rowOf(now, 'stats-alpha');
		assert.deepEqual(
			[alpha.runs, alpha.wins, alpha.winsWithChanges, alpha.acceptedUnchanged, alpha.partlyAccepted],
			[9, 4, 4, 3, 1],
		);
		const beta = rowOf(now, 'stats-beta');
		assert.deepEqual([beta.runs, beta.wins, beta.acceptedUnchanged, beta.runnerUpHunksTaken], [6, 2, 2, 1]);
		const gamma = rowOf(now, 'stats-gamma');
		assert.deepEqual(
			[gamma.runs, gamma.wins, gamma.rejected, gamma.reverted, gamma.ranked],
			[3, 3, 1, 1, false],
		);

		const stats = await statsNode();
		const top = api.teamView.provider.getTreeItem(stats);
		assert.equal(top.label, 'Stats');
		// Nine runs counted (the planted one is not); 6 of the 8 decided changes accepted.
		assert.deepEqual([now.runs, now.acceptanceRate], [9, 0.75]);
		assert.equal(top.description, '9 runs · you accepted 75%');
		assert.equal(top.command?.command, commandIds.showTeamStats);
		const children = (await api.teamView.provider.getChildren(stats)) as TeamNode[];
		const models = children.filter((node) => node.kind === 'stats-model');
		// Every model of the board, in its order (ranked first), each with its runs.
		assert.deepEqual(
			models.map((node) => api.teamView.provider.getTreeItem(node).label),
			now.models.map((row) => row.label),
		);
		const item = (name: string) => {
			const node = models.find(
				(candidate) => candidate.kind === 'stats-model' && candidate.row.label === model(name),
			);
			assert.ok(node);
			return api.teamView.provider.getTreeItem(node);
		};
		assert.equal(item('stats-alpha').description, '9 runs · won 4 · accepted 4 of 4 · $0.0020/run');
		assert.equal(item('stats-beta').description, '6 runs · won 2 · accepted 2 of 2 · $0.010/run');
		assert.equal(item('stats-gamma').description, '3 runs · too few to rank');
		const tooltip = String(item('stats-beta').tooltip).split('\n');
		assert.match(tooltip[0]!, new RegExp(`^${model('stats-beta')} — rank \\d+$`));
		assert.deepEqual(tooltip.slice(1), [
			`Runs: 6 · answers: ${beta.answers}`,
			'Won: 2 of 6 runs',
			`Votes received: ${beta.votesReceived}`,
			`Agreed with the final vote: ${beta.agreedWithFinal} of the ${beta.votedRuns} runs it voted in`,
			'Winning changes: 2 · accepted unchanged 2 · partly accepted 0 · rejected 0 · reverted 0',
			'Runner-up hunks taken from it: 1',
			'Cost per run: $0.010 · time per run: 2.0 s',
		]);
		assert.match(String(item('stats-gamma').tooltip), /— not ranked: 3 of the 5 runs a rank needs\n/);
		assert.match(String(item('stats-gamma').tooltip), /rejected 1 · reverted 1/);
		// The planted run is listed as not counted, with the core's reason.
		const skipped = children.find((node) => node.kind === 'stats-skipped');
		assert.ok(skipped, 'a row for the runs not counted');
		assert.match(
			String(api.teamView.provider.getTreeItem(skipped).tooltip),
			/^20261120-100010-stat: not made on this machine/m,
		);
	});

	it('a run file written again refreshes the Stats row; a Stats refresh announces no team change (the model picker follows the team only)', async () => {
		let stats = 0;
		let team = 0;
		const listeners = [
			api.teamView.provider.onDidChangeTreeData(() => stats++),
			api.teamView.provider.onDidChangeTeam(() => team++),
		];
		try {
			// The runs watcher refreshes the tree (the Stats row)…
			const result = join(runsDir(root()), '20261120-100009-stat', 'result.json');
			writeFileSync(result, readFileSync(result));
			await until('the Stats row refreshed by the runs watcher', () => stats > 0);
			// …through refreshStats, which announces no team change (read synchronously: an earlier
			// suite's debounced team refresh may land any time).
			const [treeBefore, teamBefore] = [stats, team];
			api.teamView.provider.refreshStats();
			assert.deepEqual([stats - treeBefore, team - teamBefore], [1, 0]);
		} finally {
			for (const listener of listeners) listener.dispose();
		}
	});

	it('Show Team Stats opens the core’s Markdown report of those runs (a virtual document) in the preview', async () => {
		const uri = await vscode.commands.executeCommand<vscode.Uri>(commandIds.showTeamStats);
		assert.ok(uri);
		assert.equal(uri.scheme, 'massgen-stats');
		const document = await vscode.workspace.openTextDocument(uri);
		assert.equal(document.getText(), statsReport(await board(), 'markdown'));
		assert.match(document.getText(), /stats\\-alpha/);
		await until('the Markdown preview tab', () =>
			vscode.window.tabGroups.all
				.flatMap((group) => group.tabs)
				.find((tab) => tab.input instanceof vscode.TabInputWebview && tab.label.includes('Team Stats')),
		);
	});

	it('Suggest a Team: shows the core’s suggestion and evidence; Escape writes nothing, Enter on evidence neither; a place writes a valid team', async () => {
		const expected = suggestTeam(await board(), { size: 2 });
		assert.ok(!('none' in expected), `a suggestion: ${JSON.stringify(expected)}`);
		// The two ranked models, each at 100% against the user's 75%; gamma has too few runs.
		assert.deepEqual(
			expected.members.map((row) => row.label),
			[model('stats-alpha'), model('stats-beta')],
		);
		assert.ok(Math.abs(expected.costPerRunUsd - 0.012) < 1e-9, String(expected.costPerRunUsd));
		if (existsSync(config())) renameSync(config(), backup());
		const before = written();
		const steps: Step[] = [];
		const listener = api.teamView.onDidShowBuilderStep((step) => steps.push(step));
		try {
			// Declined: the pick shows the summary and each member's evidence; Escape.
			let declined: unknown = 'pending';
			void Promise.resolve(vscode.commands.executeCommand(commandIds.suggestTeam, 2)).then(
				(file) => (declined = file),
			);
			const [name, input] = await until('the suggestion', () => steps.shift());
			assert.equal(name, 'suggestion');
			const pick = input as vscode.QuickPick<vscode.QuickPickItem>;
			assert.match(
				pick.placeholder ?? '',
				/per run; each member’s changes were accepted at least \d+% of the time$/,
			);
			assert.deepEqual(
				pick.items.filter((item) => item.detail !== undefined).map((item) => item.detail),
				expected.evidence,
			);
			await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
			await until('the command to end', () => declined !== 'pending');
			assert.equal(declined, undefined);
			assert.deepEqual(written(), before, 'declined: nothing written');

			// Enter on an evidence row keeps the pick open; Enter on "Save in This Workspace" writes.
			let file: unknown = 'pending';
			void Promise.resolve(vscode.commands.executeCommand(commandIds.suggestTeam, 2)).then((f) => (file = f));
			const [, again] = await until('the suggestion again', () => steps.shift());
			const second = again as vscode.QuickPick<vscode.QuickPickItem>;
			const move = async (wanted: (item: vscode.QuickPickItem) => boolean) => {
				for (
					let i = 0;
					i <= second.items.length && !(second.activeItems[0] && wanted(second.activeItems[0]));
					i++
				) {
					const was = second.activeItems[0];
					await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
					await until('the highlight to move', () => second.activeItems[0] !== was, 10_000);
				}
			};
			await move((item) => item.detail === expected.evidence[0]);
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			// Not taken: the pick is still there (the next move happens in it) and nothing is written.
			assert.equal(file, 'pending', 'Enter on evidence does not decide');
			assert.deepEqual(written(), before);
			await move((item) => item.description === '.massgen/config.yaml');
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			await until('the team written', () => file !== 'pending');
			assert.equal(file, config());
			const text = readFileSync(config(), 'utf8');
			assert.match(text, /^# Written by MassGen: Build Team\./);
			const loaded = loadConfigText(text, config());
			assert.deepEqual(loaded.issues, []);
			assert.deepEqual(
				loaded.config!.agents.map((agent) => `${agent.backend.type}/${agent.backend.model}`),
				expected.members.map((row) => row.label),
			);
			const after = written();
			assert.deepEqual(
				Object.keys(after.folder).filter((path) => after.folder[path] !== before.folder[path]),
				['.massgen/config.yaml'],
				'only the team file changed',
			);
			assert.deepEqual([after.user, after.setting], [before.user, before.setting]);
		} finally {
			listener.dispose();
			rmSync(config(), { force: true });
			if (existsSync(backup())) renameSync(backup(), config());
		}
	});

	it('Build Team offers the suggestion first; taking it checks its members in the members step', async () => {
		// A team of two, so the suggestion keeps that size.
		const team = join(dir, 'two.yaml');
		const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
		writeFileSync(
			team,
			['one', 'two']
				.flatMap((id) => [
					`  - id: ${id}`,
					`    backend: { type: ${type}, model: stats-alpha, base_url: "${url}" }`,
				])
				.map((line) => `${line}\n`)
				.join('')
				.replace(/^/, 'agents:\n'),
		);
		await useConfig(team);
		api.teamView.provider.refresh();
		const expected = suggestTeam(await board(), { size: 2 });
		assert.ok(!('none' in expected));
		const before = written();
		const steps: Step[] = [];
		const listener = api.teamView.onDidShowBuilderStep((step) => steps.push(step));
		try {
			let file: unknown = 'pending';
			void Promise.resolve(vscode.commands.executeCommand(commandIds.buildTeam)).then((f) => (file = f));
			const [name, input] = await until('the builder’s first step', () => steps.shift(), 30_000);
			assert.equal(name, 'suggestion');
			const pick = input as vscode.QuickPick<vscode.QuickPickItem>;
			assert.equal(pick.step, 1);
			assert.deepEqual(
				pick.items
					.filter((item) => item.detail !== undefined && item.label.startsWith('$(graph)'))
					.map((item) => item.detail),
				expected.evidence,
			);
			const first = await until('the first row highlighted', () => pick.activeItems[0]);
			assert.match(first.label, /Start from the Suggested Team/);
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			const [next, members] = await until('the members step', () => steps.shift(), 30_000);
			assert.equal(next, 'members');
			const checked = (members as vscode.QuickPick<vscode.QuickPickItem & { type?: string }>).selectedItems;
			assert.deepEqual(
				checked.map((item) => `${item.type}/${item.label}`),
				expected.members.map((row) => row.label),
			);
			await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
			await until('the builder to end', () => file !== 'pending');
			assert.equal(file, undefined);
			assert.deepEqual(written(), before, 'cancelled: nothing written');
		} finally {
			listener.dispose();
			await useConfig(undefined);
		}
	});
});
