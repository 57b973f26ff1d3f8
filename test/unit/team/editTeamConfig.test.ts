import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { editTeamConfigText } from '../../../src/core/team/editTeamConfig.js';

const text = `# my team
agents:
  # the main one
  - id: gpt
    backend:
      type: openai
      model: gpt-5-mini # cheap
    system_message: Old role.
  - id: local
    backend: { type: ollama, model: qwen3:8b }
orchestrator:
  voting_sensitivity: strict
`;

const edited = (edit: Parameters<typeof editTeamConfigText>[1], from = text) => {
	const result = editTeamConfigText(from, edit);
	if ('error' in result) throw new Error(result.error);
	return result.text;
};

describe('editTeamConfigText: the Team view edits one agent and keeps the rest of the file', () => {
	it('role: set, replaced and removed; comments stay', () => {
		const out = edited({ kind: 'role', id: 'local', role: 'You are the skeptic: "no" #1' });
		expect(loadConfigText(out, 'c.yaml').config!.agents[1]!.system_message).toBe(
			'You are the skeptic: "no" #1',
		);
		expect(out).toContain('# my team');
		expect(out).toContain('# the main one');
		expect(out).toContain('# cheap');
		const cleared = edited({ kind: 'role', id: 'gpt', role: '  ' });
		expect(loadConfigText(cleared, 'c.yaml').config!.agents[0]!.system_message).toBeUndefined();
	});

	it('model and removal', () => {
		const model = loadConfigText(edited({ kind: 'model', id: 'gpt', model: 'gpt-5' }), 'c.yaml').config!;
		expect(model.agents[0]!.backend.model).toBe('gpt-5');
		expect(model.orchestrator.voting_sensitivity).toBe('strict');
		const removed = loadConfigText(edited({ kind: 'remove', id: 'gpt' }), 'c.yaml').config!;
		expect(removed.agents.map((a) => a.id)).toEqual(['local']);
	});

	it('refuses what it cannot do, with the reason', () => {
		expect(editTeamConfigText(text, { kind: 'remove', id: 'nobody' })).toEqual({
			error: "no agent 'nobody' in the file",
		});
		const one = 'agent:\n  id: solo\n  backend: { type: openai, model: m }\n';
		expect(editTeamConfigText(one, { kind: 'remove', id: 'solo' })).toEqual({
			error: "'solo' is the team's only agent",
		});
		expect(
			loadConfigText(edited({ kind: 'role', id: 'solo', role: 'R' }, one), 'c.yaml').config!.agents[0]!
				.system_message,
		).toBe('R');
		expect(editTeamConfigText('agents: [', { kind: 'remove', id: 'x' })).toMatchObject({
			error: expect.stringMatching(/not valid YAML/),
		});
		// An agent without an id is addressed as the loader names it.
		const noId =
			'agents:\n  - backend: { type: openai, model: m }\n  - backend: { type: claude, model: c }\n';
		expect(
			loadConfigText(edited({ kind: 'remove', id: 'agent1' }, noId), 'c.yaml').config!.agents[0]!.backend
				.type,
		).toBe('claude');
	});
});
