import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseTeamConfig as coreChoice } from '../../../src/core/team/chooseTeamConfig';
import {
	type ConfigSettingInputs,
	missingConfigMessage,
	settingNamedConfig,
	skippedConfigNotes,
} from '../../../src/vscode/config/teamConfigSetting';

const ws = '/home/me/project';
const shipped = '/ext/configs';

interface TeamConfigInputs extends ConfigSettingInputs {
	readonly trusted: boolean;
	readonly exists: (path: string) => Promise<boolean>;
}

function inputs(over: Partial<TeamConfigInputs> & { files?: string[] }): TeamConfigInputs {
	const files = new Set(over.files ?? []);
	return {
		setting: '',
		workspaceRoot: ws,
		shippedDir: shipped,
		trusted: true,
		home: '/home/me',
		exists: async (path) => files.has(path),
		...over,
	};
}

/** The editor's choice as a run makes it: the setting as a named file, the core's rule, the notes in words. */
async function chooseTeamConfig(given: TeamConfigInputs) {
	const { trusted, exists, workspaceRoot, shippedDir } = given;
	const named = settingNamedConfig(given);
	const choice = await coreChoice({ workspaceRoot, shippedConfigsDir: shippedDir, trusted, exists, named });
	if (!choice.ok) return { ...choice, message: missingConfigMessage(choice.file), notes: [] as string[] };
	return { ...choice, notes: skippedConfigNotes(choice.skipped, given.setting) };
}

describe('chooseTeamConfig (config order, Workspace Trust)', () => {
	it('uses the setting first, relative to the workspace folder', async () => {
		const choice = await chooseTeamConfig(
			inputs({
				setting: 'teams/a.yaml',
				files: [join(ws, 'teams/a.yaml'), join(ws, '.massgen/config.yaml')],
			}),
		);
		expect(choice).toMatchObject({ ok: true, kind: 'setting', file: join(ws, 'teams/a.yaml'), notes: [] });
	});

	it('expands ${workspaceFolder} and ~, and takes absolute paths as they are', async () => {
		const files = ['/home/me/project/x.yaml', '/home/me/teams/t.yaml', '/etc/team.yaml'];
		expect(await chooseTeamConfig(inputs({ setting: '${workspaceFolder}/x.yaml', files }))).toMatchObject({
			file: files[0],
		});
		expect(await chooseTeamConfig(inputs({ setting: '~/teams/t.yaml', files }))).toMatchObject({
			file: files[1],
		});
		expect(await chooseTeamConfig(inputs({ setting: '/etc/team.yaml', files }))).toMatchObject({
			file: files[2],
		});
	});

	it('resolves preset:<name> to a shipped config', async () => {
		const file = join(shipped, 'demo.yaml');
		expect(await chooseTeamConfig(inputs({ setting: 'preset:demo', files: [file] }))).toMatchObject({
			ok: true,
			kind: 'preset',
			file,
		});
		expect(await chooseTeamConfig(inputs({ setting: 'preset:demo.yaml', files: [file] }))).toMatchObject({
			kind: 'preset',
			file,
		});
	});

	it('reports a setting that points nowhere instead of silently falling back', async () => {
		const choice = await chooseTeamConfig(
			inputs({ setting: 'missing.yaml', files: [join(ws, '.massgen/config.yaml')] }),
		);
		expect(choice.ok).toBe(false);
		expect(choice.ok ? '' : choice.message).toMatch(/missing\.yaml, which does not exist/);
	});

	it('then <workspace>/.massgen/config.yaml, then the shipped default team', async () => {
		const inWs = join(ws, '.massgen/config.yaml');
		expect(await chooseTeamConfig(inputs({ files: [inWs] }))).toMatchObject({
			ok: true,
			kind: 'workspace',
			file: inWs,
		});
		expect(await chooseTeamConfig(inputs({}))).toMatchObject({
			ok: true,
			kind: 'default',
			file: join(shipped, 'default.yaml'),
		});
	});

	it('untrusted: ignores .massgen/config.yaml and says why', async () => {
		const choice = await chooseTeamConfig(
			inputs({ trusted: false, files: [join(ws, '.massgen/config.yaml')] }),
		);
		expect(choice).toMatchObject({ ok: true, kind: 'default' });
		expect(choice.notes.join(' ')).toMatch(/not trusted.*\.massgen\/config\.yaml.*not used/);
	});

	it('untrusted: ignores a setting that points into the workspace, but not one outside it or a preset', async () => {
		const inside = join(ws, 'team.yaml');
		const ignored = await chooseTeamConfig(inputs({ trusted: false, setting: 'team.yaml', files: [inside] }));
		expect(ignored).toMatchObject({ ok: true, kind: 'default' });
		expect(ignored.notes[0]).toMatch(/not trusted.*massgen\.config setting \(team\.yaml\)/);

		const outside = await chooseTeamConfig(
			inputs({ trusted: false, setting: '/home/me/teams/t.yaml', files: ['/home/me/teams/t.yaml'] }),
		);
		expect(outside).toMatchObject({ ok: true, kind: 'setting', notes: [] });
		const preset = await chooseTeamConfig(
			inputs({ trusted: false, setting: 'preset:demo', files: [join(shipped, 'demo.yaml')] }),
		);
		expect(preset).toMatchObject({ ok: true, kind: 'preset' });
	});

	it('a path the workspace’s settings name is the workspace’s choice wherever it lies; untrusted, not used', async () => {
		const outside = '/home/me/elsewhere/team.yaml';
		const named = await chooseTeamConfig(
			inputs({ setting: outside, settingFromWorkspace: true, files: [outside] }),
		);
		expect(named).toMatchObject({ ok: true, kind: 'workspace', file: outside });
		// Control: the same path from the user's settings is theirs.
		expect(await chooseTeamConfig(inputs({ setting: outside, files: [outside] }))).toMatchObject({
			kind: 'setting',
		});
		// A shipped preset stays one whoever names it.
		const preset = join(shipped, 'demo.yaml');
		expect(
			await chooseTeamConfig(inputs({ setting: 'preset:demo', settingFromWorkspace: true, files: [preset] })),
		).toMatchObject({ kind: 'preset' });
		const untrusted = await chooseTeamConfig(
			inputs({ trusted: false, setting: outside, settingFromWorkspace: true, files: [outside] }),
		);
		expect(untrusted).toMatchObject({ ok: true, kind: 'default' });
		expect(untrusted.notes[0]).toMatch(
			/not trusted.*its settings name \(massgen\.config: \/home\/me\/elsewhere/,
		);
	});
});
