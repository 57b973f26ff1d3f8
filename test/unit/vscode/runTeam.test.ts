import { describe, expect, it } from 'vitest';
import { chooseTeamConfig } from '../../../src/core/team/chooseTeamConfig';
import { runTeamConfig } from '../../../src/vscode/run/runTeam';

const shipped = '/ext/configs';
const root = '/repo';
/** Another folder of the same multi-root window (Ask Several Teams lists the first folder's teams). */
const other = '/other';
const exists = async () => true;
const choose = (file: string, trusted: boolean) =>
	chooseTeamConfig({
		workspaceRoot: root,
		shippedConfigsDir: shipped,
		trusted,
		named: runTeamConfig({ file }, shipped, [root, other]),
		exists,
	});

describe("a run's own team (RunRequest.team) under the core's trust rule", () => {
	it("a shipped preset is the extension's file: used in an untrusted workspace too", async () => {
		expect(await choose('/ext/configs/local.yaml', false)).toMatchObject({
			ok: true,
			kind: 'preset',
			file: '/ext/configs/local.yaml',
		});
	});

	it("a file of the workspace is never used while it is untrusted (a hostile repository's config does not run)", async () => {
		const choice = await choose('/repo/.massgen/evil.yaml', false);
		expect(choice).toMatchObject({ ok: true, kind: 'default', file: '/ext/configs/default.yaml' });
		// A path that only leads through the shipped folder back into the workspace is still the workspace's.
		expect(await choose('/ext/configs/../../repo/.massgen/evil.yaml', false)).toMatchObject({
			kind: 'default',
		});
	});

	it("trusted, a workspace file is the workspace's choice (its programs need the folder's consent)", async () => {
		expect(await choose('/repo/.massgen/fast.yaml', true)).toMatchObject({
			kind: 'workspace',
			file: '/repo/.massgen/fast.yaml',
		});
	});

	it("a file of another folder of the window is the workspace's too, not the user's: its programs need consent", async () => {
		expect(await choose('/other/.massgen/evil.yaml', false)).toMatchObject({ kind: 'default' });
		expect(await choose('/other/.massgen/evil.yaml', true)).toMatchObject({
			kind: 'workspace',
			file: '/other/.massgen/evil.yaml',
		});
	});

	it("a file outside the workspace is the user's, as if massgen.config named it", async () => {
		expect(await choose('/home/me/team.yaml', false)).toMatchObject({
			kind: 'setting',
			file: '/home/me/team.yaml',
		});
	});
});
