import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { countAgreement } from '../../../src/core/codeReview/agreement.js';
import { parseFindings } from '../../../src/core/codeReview/findings.js';

interface ScriptedAgent {
	id: string;
	backend: { script: { coordination: { answer?: string }[]; presentation: { text: string } } };
}

describe('the selection-review fixture team (test/fixtures/changes/review-team.yaml)', () => {
	const config = parse(
		readFileSync(join(__dirname, '..', '..', 'fixtures', 'changes', 'review-team.yaml'), 'utf8'),
	) as { agents: ScriptedAgent[] };
	const answers = config.agents.map((agent) => ({
		agentId: agent.id,
		findings: parseFindings(agent.backend.script.coordination[0]!.answer ?? ''),
	}));

	for (const winner of config.agents) {
		it(`gives line 3 three agents and line 6 two when ${winner.id} wins`, () => {
			const agreed = countAgreement({
				winner: winner.id,
				final: parseFindings(winner.backend.script.presentation.text),
				answers,
			});
			expect(agreed.find((finding) => finding.line === 3)?.agents).toHaveLength(3);
			expect(agreed.find((finding) => finding.line === 6)?.agents).toHaveLength(2);
		});
	}
});
