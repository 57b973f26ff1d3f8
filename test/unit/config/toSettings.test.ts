import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import type { MassGenConfig } from '../../../src/core/config/schema.js';
import { toBackendSettings, toOrchestratorSettings } from '../../../src/core/config/toSettings.js';
import { defaultOrchestratorSettings } from '../../../src/core/orchestrator/types.js';

function fixture(name: string): MassGenConfig {
	const file = join(__dirname, '..', '..', 'fixtures', 'config', 'valid', name);
	const { config } = loadConfigText(readFileSync(file, 'utf8'), name);
	if (!config) throw new Error(`${name} did not load`);
	return config;
}

describe('toOrchestratorSettings', () => {
	it('maps every key, seconds to milliseconds', () => {
		expect(toOrchestratorSettings(fixture('full.yaml'))).toEqual({
			votingSensitivity: 'balanced',
			answerNoveltyRequirement: 'strict',
			maxNewAnswersPerAgent: 2,
			maxToolCallsPerTurn: 25,
			maxRounds: 6,
			skipCoordinationRounds: false,
			coordinationTimeoutMs: 300_000,
			agentTurnTimeoutMs: 90_500,
			presentationTimeoutMs: 120_000,
			maxOrchestrationRestarts: 0,
			quorum: 'majority',
			checklist: null,
			planningMode: false,
			planningModeInstruction: defaultOrchestratorSettings.planningModeInstruction,
		});
	});

	it('maps the checklist keys (MassGen: orchestrator.voting_*, orchestrator.coordination.*)', () => {
		const text = [
			'agents: [{ backend: { model: gpt-5-mini } }]',
			'orchestrator:',
			'  voting_sensitivity: checklist_gated',
			'  voting_threshold: 8',
			'  coordination:',
			'    criteria_mode: bootstrap_inline',
			'    bootstrap_max_per_agent_per_round: 2',
			'    bootstrap_max_total: 5',
			'    checklist_criteria_inline:',
			'      - { text: "  Handles   empty input ", category: primary }',
			'      - { text: Has tests }',
		].join('\n');
		const { config, issues } = loadConfigText(text, 'team.yaml');
		expect(issues).toEqual([]);
		const settings = toOrchestratorSettings(config!);
		expect(settings.votingSensitivity).toBe('lenient');
		expect(settings.checklist).toEqual({
			threshold: 8,
			criteria: [
				{ text: 'Handles   empty input', category: 'primary' },
				{ text: 'Has tests', category: 'standard' },
			],
			generate: false,
			mode: 'bootstrap_inline',
			maxProposalsPerAgentPerRound: 2,
			maxProposedTotal: 5,
		});
		// The generator alone turns a checklist on too; the threshold defaults to 7; coordination's keys win.
		const generated = loadConfigText(
			[
				'agents: [{ backend: { model: gpt-5-mini } }]',
				'orchestrator:',
				'  voting_sensitivity: strict',
				'  coordination: { voting_sensitivity: checklist_gated, evaluation_criteria_generator: { enabled: true } }',
			].join('\n'),
			'team.yaml',
		);
		expect(generated.issues).toEqual([]);
		// A given criterion is one sentence: 512 KB is refused with its position, not sent to every agent.
		const huge = loadConfigText(
			[
				'agents: [{ backend: { model: gpt-5-mini } }]',
				'orchestrator: { voting_sensitivity: checklist_gated, coordination: { checklist_criteria_inline: [{ text: ' +
					'x'.repeat(512 * 1024) +
					' }] } }',
			].join('\n'),
			'team.yaml',
		);
		expect(huge.config).toBeUndefined();
		expect(huge.issues.map((i) => `${i.line}:${i.col} ${i.message}`)).toEqual([
			'2:106 orchestrator.coordination.checklist_criteria_inline[0].text: a criterion is one sentence of at most 1024 bytes',
		]);
		expect(toOrchestratorSettings(generated.config!).checklist).toMatchObject({
			threshold: 7,
			criteria: [],
			generate: true,
			mode: 'static',
		});
	});

	it("gives the orchestrator's own defaults for a config that sets nothing", () => {
		const settings = toOrchestratorSettings(fixture('minimal-single.yaml'));
		for (const [key, value] of Object.entries(settings)) {
			expect([key, value]).toEqual([
				key,
				defaultOrchestratorSettings[key as keyof typeof defaultOrchestratorSettings],
			]);
		}
	});
});

describe('toBackendSettings', () => {
	it('maps the common fields and puts everything else in options', () => {
		const [gpt, , azure] = fixture('full.yaml').agents;
		expect(toBackendSettings(gpt!)).toEqual({
			type: 'openai',
			model: 'gpt-5-mini',
			apiKey: 'sk-test-config-key',
			temperature: 0.2,
			maxTokens: 4096,
			options: {
				top_p: 0.9,
				extra_body: { service_tier: 'flex' },
				reasoning: { effort: 'low', summary: 'auto' },
				text: { verbosity: 'medium' },
			},
		});
		expect(toBackendSettings(azure!, 'resolved-key')).toEqual({
			type: 'azure_openai',
			model: 'gpt-4o',
			apiKey: 'resolved-key',
			baseUrl: 'https://example.openai.azure.com',
			options: { api_version: '2024-10-21' },
		});
	});

	it('passes the script of a scripted backend through options, and omits absent fields', () => {
		const settings = toBackendSettings(fixture('scripted.yaml').agents[0]!);
		expect(Object.keys(settings).sort()).toEqual(['model', 'options', 'type']);
		expect(settings.options.script).toMatchObject({
			coordination: [{ answer: 'The answer is 42.' }, { vote: 'first' }],
		});
	});
});
