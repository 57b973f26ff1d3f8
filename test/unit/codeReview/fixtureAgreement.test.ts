import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { mergeFindings } from '../../../src/core/codeReview/agreement.js';
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
		it(`gives line 3 three agents, line 6 two and line 1 gamma alone when ${winner.id} wins`, () => {
			const merged = mergeFindings({
				winner: winner.id,
				final: parseFindings(winner.backend.script.presentation.text),
				answers,
			});
			expect(merged.find((finding) => finding.line === 3)?.agents).toHaveLength(3);
			expect(merged.find((finding) => finding.line === 6)?.agents).toHaveLength(2);
			expect(merged.find((finding) => finding.line === 1)?.agents).toEqual(['gamma']);
			expect(merged).toHaveLength(3);
		});
	}
});
