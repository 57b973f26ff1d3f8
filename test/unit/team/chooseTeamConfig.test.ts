import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseTeamConfig, type TeamConfigInputs } from '../../../src/core/team/chooseTeamConfig.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';

const root = '/work/project';
const shipped = '/ext/configs';
const inWorkspace = join(root, '.massgen', 'config.yaml');
const existing =
	(...files: string[]) =>
	async (path: string) =>
		files.includes(path);

const inputs = (over: Partial<TeamConfigInputs>): TeamConfigInputs => ({
	workspaceRoot: root,
	shippedConfigsDir: shipped,
	trusted: true,
	...over,
});

describe('chooseTeamConfig: the one "which file" rule of every shell', () => {
	it('the named file, else the workspace config, else the shipped default team', async () => {
		const named = '/home/me/team.yaml';
		expect(
			await chooseTeamConfig(inputs({ named: { file: named }, exists: existing(named, inWorkspace) })),
		).toEqual({ ok: true, file: named, kind: 'setting', skipped: [] });
		expect(await chooseTeamConfig(inputs({ exists: existing(inWorkspace) }))).toEqual({
			ok: true,
			file: inWorkspace,
			kind: 'workspace',
			skipped: [],
		});
		expect(await chooseTeamConfig(inputs({ exists: existing() }))).toEqual({
			ok: true,
			file: join(shipped, 'default.yaml'),
			kind: 'default',
			skipped: [],
		});
	});

	it('a named file that does not exist is reported, not replaced by another team', async () => {
		const named = '/home/me/missing.yaml';
		expect(await chooseTeamConfig(inputs({ named: { file: named }, exists: existing(inWorkspace) }))).toEqual(
			{
				ok: false,
				file: named,
			},
		);
	});

	it('untrusted: the workspace config is skipped, and the choice says so', async () => {
		const choice = await chooseTeamConfig(inputs({ trusted: false, exists: existing(inWorkspace) }));
		expect(choice).toEqual({
			ok: true,
			file: join(shipped, 'default.yaml'),
			kind: 'default',
			skipped: ['workspace-config'],
		});
	});

	it('untrusted: a named file inside the workspace or named by its settings is skipped; a preset or the user’s file outside is not', async () => {
		const inside = join(root, 'team.yaml');
		const outside = '/home/me/team.yaml';
		const preset = join(shipped, 'demo.yaml');
		const exists = existing(inside, outside, preset);
		expect(await chooseTeamConfig(inputs({ trusted: false, named: { file: inside }, exists }))).toMatchObject(
			{
				kind: 'default',
				skipped: ['inside-workspace'],
			},
		);
		expect(
			await chooseTeamConfig(inputs({ trusted: false, named: { file: outside, byWorkspace: true }, exists })),
		).toMatchObject({ kind: 'default', skipped: ['workspace-setting'] });
		expect(
			await chooseTeamConfig(inputs({ trusted: false, named: { file: outside }, exists })),
		).toMatchObject({
			kind: 'setting',
			file: outside,
		});
		expect(
			await chooseTeamConfig(
				inputs({ trusted: false, named: { file: preset, preset: true, byWorkspace: true }, exists }),
			),
		).toMatchObject({ kind: 'preset', file: preset });
		// Trusted, the workspace's settings' choice is the workspace's wherever it lies (its parts need consent).
		expect(
			await chooseTeamConfig(inputs({ named: { file: outside, byWorkspace: true }, exists })),
		).toMatchObject({ kind: 'workspace', file: outside });
	});

	it('on real files: an untrusted folder’s .massgen/config.yaml is never chosen (default: pathExists)', async () => {
		const ws = makeWorkspaceDir({ '.massgen/config.yaml': 'agents: []\n' });
		const trusted = await chooseTeamConfig({ workspaceRoot: ws, shippedConfigsDir: shipped, trusted: true });
		expect(trusted).toMatchObject({ kind: 'workspace', file: join(ws, '.massgen', 'config.yaml') });
		const untrusted = await chooseTeamConfig({
			workspaceRoot: ws,
			shippedConfigsDir: shipped,
			trusted: false,
		});
		expect(untrusted).toMatchObject({ kind: 'default', skipped: ['workspace-config'] });
	});
});
