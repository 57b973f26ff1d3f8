import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTeam } from '../../../src/core/team/loadTeam.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';

const shippedConfigsDir = join(__dirname, '..', '..', '..', 'configs');
const scripted = (id: string) =>
	`  - id: ${id}\n    backend: { type: scripted, script: { coordination: [{ answer: ok }] } }\n`;

describe('loadTeam: the team step of prepareRun, massgen trust and the Team view', () => {
	it('chooses, loads and resolves: the workspace’s own config when trusted, with its kind and source', async () => {
		const root = makeWorkspaceDir({ '.massgen/config.yaml': `agents:\n${scripted('a')}${scripted('b')}` });
		const team = await loadTeam({ workspaceRoot: root, shippedConfigsDir, trusted: true, keys: { env: {} } });
		if (!team.ok || !team.resolution.ok) throw new Error('expected a resolved team');
		expect(team.choice).toEqual({
			ok: true,
			kind: 'workspace',
			file: join(root, '.massgen', 'config.yaml'),
			skipped: [],
		});
		expect(team.resolution.team.config.agents.map((agent) => agent.id)).toEqual(['a', 'b']);
		expect(team.resolution.team.kind).toBe('workspace');
		expect(team.resolution.team.source?.locate(['agents', 1], 'value').line).toBe(4);
	});

	it('a config with errors: loaded with its positioned issues, and the resolution says config', async () => {
		const root = makeWorkspaceDir({
			'.massgen/config.yaml': 'agents:\n  - id: a\n    backend: { type: nope }\n',
		});
		const team = await loadTeam({ workspaceRoot: root, shippedConfigsDir, trusted: true, keys: { env: {} } });
		expect(team).toMatchObject({ ok: true, resolution: { ok: false, problem: 'config' } });
		if (!team.ok) return;
		expect(team.loaded.issues[0]).toMatchObject({ severity: 'error', line: 3 });
	});

	it('a named file that does not exist: nothing loaded, the file said', async () => {
		const root = makeWorkspaceDir({ '.massgen/config.yaml': `agents:\n${scripted('a')}` });
		const missing = join(root, 'nope.yaml');
		expect(
			await loadTeam({
				workspaceRoot: root,
				shippedConfigsDir,
				trusted: true,
				named: { file: missing },
				keys: { env: {} },
			}),
		).toEqual({ ok: false, file: missing });
	});
});
