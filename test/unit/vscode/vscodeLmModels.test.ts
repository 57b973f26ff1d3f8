import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeChatModel, distinctFamilies, pickChatModel } from '../../../src/vscode/lm/pickChatModel';
import {
	resolveTeam as resolveCoreTeam,
	type TeamInputs as CoreInputs,
} from '../../../src/core/team/resolveTeam';
import type { TeamConfigKind } from '../../../src/core/team/chooseTeamConfig';
import { lmAgentId, lmMember } from '../../../src/vscode/lm/lmMember';
import { type LmModels, vscodeLmModels } from '../../../src/vscode/run/vscodeLmModels';

const shippedDefault = join(__dirname, '..', '..', '..', 'configs', 'default.yaml');

const copilot = [
	{ id: 'copilot-gpt-4o', family: 'gpt-4o', name: 'GPT-4o', vendor: 'copilot' },
	{ id: 'copilot-gpt-4o-mini', family: 'gpt-4o', name: 'GPT-4o mini', vendor: 'copilot' },
	{ id: 'copilot-claude', family: 'claude-3.5-sonnet', name: 'Claude 3.5 Sonnet', vendor: 'copilot' },
	{ id: 'copilot-o3', family: 'o3-mini', name: 'o3-mini', vendor: 'copilot' },
	{ id: 'copilot-gemini', family: 'gemini-2.0-flash', name: 'Gemini 2.0 Flash', vendor: 'copilot' },
];

function configFile(yaml: string): string {
	const file = join(mkdtempSync(join(tmpdir(), 'massgen-team-')), 'team.yaml');
	writeFileSync(file, yaml);
	return file;
}

type TeamInputs = Omit<CoreInputs<TeamConfigKind>, 'host'> & { readonly lmModels: LmModels };

/** The core's `resolveTeam` with VS Code's language models as the host's, as the editor's run host gives them. */
function resolveTeam(inputs: TeamInputs) {
	const { lmModels, ...team } = inputs;
	return resolveCoreTeam({ ...team, host: vscodeLmModels(lmModels) });
}

function inputs(over: Partial<TeamInputs>): TeamInputs {
	return { file: shippedDefault, kind: 'default', keys: { env: {} }, lmModels: async () => [], ...over };
}

describe('pickChatModel', () => {
	it('matches id, then family, then name, then vendor/family, case-insensitively', () => {
		expect(pickChatModel(copilot, 'copilot-o3')?.id).toBe('copilot-o3');
		expect(pickChatModel(copilot, 'GPT-4o')?.id).toBe('copilot-gpt-4o');
		expect(pickChatModel(copilot, 'claude 3.5 sonnet')?.id).toBe('copilot-claude');
		expect(pickChatModel(copilot, 'copilot/gemini-2.0-flash')?.id).toBe('copilot-gemini');
		expect(pickChatModel(copilot, 'gpt-5')).toBeUndefined();
	});

	it('distinctFamilies keeps the first model of each family, up to a limit', () => {
		expect(distinctFamilies(copilot, 3).map((m) => m.id)).toEqual([
			'copilot-gpt-4o',
			'copilot-claude',
			'copilot-o3',
		]);
		expect(describeChatModel(copilot[0]!)).toBe('gpt-4o (copilot, GPT-4o)');
		expect(lmAgentId(copilot[2]!)).toBe('copilot-claude-3.5-sonnet');
	});
});

describe('resolveTeam: the default team', () => {
	it('takes the members with keys, fills up with VS Code models (capped at 4), and says who was left out', async () => {
		const resolution = await resolveTeam(
			inputs({ keys: { env: {}, secrets: { OPENAI_API_KEY: 'sk-test' } }, lmModels: async () => copilot }),
		);
		expect(resolution.ok).toBe(true);
		if (!resolution.ok) return;
		const agents = resolution.team.config.agents.map((a) => `${a.id}:${a.backend.type}:${a.backend.model}`);
		expect(agents).toEqual([
			'gpt:openai:gpt-5-mini',
			'copilot-gpt-4o:vscode_lm:copilot-gpt-4o',
			'copilot-claude-3.5-sonnet:vscode_lm:copilot-claude',
			'copilot-o3-mini:vscode_lm:copilot-o3',
		]);
		const dropped = Object.fromEntries(resolution.team.dropped.map((d) => [d.id, d.why]));
		expect(dropped.claude).toMatch(/ANTHROPIC_API_KEY/);
		expect(dropped.gemini).toMatch(/GEMINI_API_KEY/);
		expect(dropped.local).toMatch(/ollama/);
	});

	it('fails with one clear issue naming every option when nothing is available', async () => {
		const resolution = await resolveTeam(inputs({}));
		expect(resolution.ok).toBe(false);
		if (resolution.ok) return;
		expect(resolution.problem).toBe('no-agents');
		expect(resolution.issues).toHaveLength(1);
		expect(resolution.issues[0]!.message).toMatch(
			/OPENAI_API_KEY.*ANTHROPIC_API_KEY.*GEMINI_API_KEY.*ollama.*GitHub Copilot/,
		);
	});

	it('keys come from SecretStorage, the environment or .env, in that order', async () => {
		for (const keys of [
			{ env: { GEMINI_API_KEY: 'g' } },
			{ env: {}, dotenv: { GEMINI_API_KEY: 'g' } },
			{ env: {}, secrets: { GEMINI_API_KEY: 'g' } },
		]) {
			const resolution = await resolveTeam(inputs({ keys }));
			expect(resolution.ok && resolution.team.config.agents.map((a) => a.id)).toEqual(['gemini']);
		}
	});
});

describe('resolveTeam: an explicit config', () => {
	it('config errors fail with the loader’s positioned issues', async () => {
		const file = configFile(
			'agents:\n  - id: a\n    backend:\n      type: openai\n      model: gpt-4o\n      temperature: hot\n',
		);
		const resolution = await resolveTeam(
			inputs({ file, kind: 'setting', keys: { env: { OPENAI_API_KEY: 'k' } } }),
		);
		expect(resolution).toMatchObject({ ok: false, problem: 'config' });
		if (resolution.ok) return;
		expect(resolution.issues[0]).toMatchObject({ severity: 'error', line: 6, col: 20, file });
	});

	it('a missing key is an error at the agent’s backend, naming the variable', async () => {
		const file = configFile(
			'agents:\n  - id: a\n    backend:\n      type: claude\n      model: claude-sonnet-4-5\n',
		);
		const resolution = await resolveTeam(inputs({ file, kind: 'workspace' }));
		expect(resolution).toMatchObject({ ok: false, problem: 'missing-key' });
		if (resolution.ok) return;
		expect(resolution.issues).toEqual([
			expect.objectContaining({
				code: 'missing-api-key',
				line: 3,
				col: 5,
				message: expect.stringContaining('ANTHROPIC_API_KEY'),
			}),
		]);
	});

	it('a vscode_lm model VS Code does not offer is an error at its model value, listing what is available', async () => {
		const file = configFile(
			'agents:\n  - id: a\n    backend:\n      type: vscode_lm\n      model: gpt-9\n  - id: b\n    backend:\n      type: vscode_lm\n      model: gpt-4o\n',
		);
		const resolution = await resolveTeam(inputs({ file, kind: 'setting', lmModels: async () => copilot }));
		expect(resolution).toMatchObject({ ok: false, problem: 'vscode-lm' });
		if (resolution.ok) return;
		expect(resolution.issues).toEqual([
			expect.objectContaining({
				code: 'vscode-lm-unavailable',
				line: 5,
				col: 14,
				message: expect.stringMatching(/'gpt-9'.*available: gpt-4o, claude-3.5-sonnet/),
			}),
		]);
		const ok = await resolveTeam(
			inputs({
				file: configFile('agent:\n  backend:\n    type: vscode_lm\n    model: o3-mini\n'),
				kind: 'setting',
				lmModels: async () => copilot,
			}),
		);
		expect(ok.ok).toBe(true);
	});

	it('does not ask VS Code for models when no agent uses vscode_lm', async () => {
		let asked = false;
		const file = configFile(
			'agent:\n  backend:\n    type: scripted\n    script:\n      coordination:\n        - answer: hi\n',
		);
		const resolution = await resolveTeam(
			inputs({ file, kind: 'setting', lmModels: async () => ((asked = true), []) }),
		);
		expect(resolution.ok).toBe(true);
		expect(asked).toBe(false);
	});
});

describe('resolveTeam: members added for one run (the chat’s selected model)', () => {
	const scripted =
		'agents:\n  - id: copilot-gpt-4o\n    backend:\n      type: scripted\n      script:\n        coordination:\n          - answer: hi\n';

	it('joins a config team after its own agents, checked against VS Code’s models, a taken id suffixed', async () => {
		let asked = 0;
		const resolution = await resolveTeam(
			inputs({
				file: configFile(scripted),
				kind: 'setting',
				lmModels: async () => (asked++, copilot),
				added: [lmMember(copilot[0]!)],
			}),
		);
		expect(asked).toBe(1);
		expect(
			resolution.ok &&
				resolution.team.config.agents.map((a) => `${a.id}:${a.backend.type}:${a.backend.model}`),
		).toEqual(['copilot-gpt-4o:scripted:scripted', 'copilot-gpt-4o-2:vscode_lm:copilot-gpt-4o']);
	});

	it('a model VS Code no longer offers refuses the run with the check’s issue', async () => {
		const resolution = await resolveTeam(
			inputs({
				file: configFile(scripted),
				kind: 'setting',
				lmModels: async () => copilot.slice(1),
				added: [lmMember(copilot[0]!)],
			}),
		);
		expect(resolution).toMatchObject({ ok: false, problem: 'vscode-lm' });
		if (resolution.ok) return;
		expect(resolution.issues.map((issue) => issue.code)).toEqual(['vscode-lm-unavailable']);
	});

	it('joins the default team too, beyond its cap of 4, and is checked there', async () => {
		const team = await resolveTeam(inputs({ lmModels: async () => copilot, added: [lmMember(copilot[4]!)] }));
		expect(team.ok && team.team.config.agents.map((a) => a.id)).toEqual([
			'copilot-gpt-4o',
			'copilot-claude-3.5-sonnet',
			'copilot-o3-mini',
			'copilot-gemini-2.0-flash',
		]);
		const gone = await resolveTeam(
			inputs({ lmModels: async () => copilot.slice(0, 2), added: [lmMember(copilot[4]!)] }),
		);
		expect(gone).toMatchObject({ ok: false, problem: 'vscode-lm' });
	});
});
