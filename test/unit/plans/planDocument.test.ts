import { describe, expect, it } from 'vitest';
import { markStep } from '../../../src/core/plans/markStep.js';
import { planAgreement } from '../../../src/core/plans/planAgreement.js';
import {
	parsePlanDocument,
	renderPlanDocument,
	type PlanMeta,
} from '../../../src/core/plans/planDocument.js';
import { PlanError } from '../../../src/core/plans/planError.js';
import { allStepsRequest, nextStep, planFromRun, stepRequest } from '../../../src/core/plans/planRequests.js';

const id = '20261203-150102-ab12';
const meta: Omit<PlanMeta, 'agents'> = {
	id,
	task: 'Add a "verbose" flag\nwith two lines',
	depth: 'medium',
	run: id,
	created: '2026-12-03T15:01:02.000Z',
};
const answer = (steps: string[]) =>
	`# Plan: Verbose\n\n${steps.map((s, i) => `${i + 1}. **${s}**\n   Files: \`src/${i}.ts\`\n   Risk: low — small\n   Verify: npm test\n   Do ${s.toLowerCase()}.\n   - [ ] a checkbox in the details\n`).join('\n')}`;
const result = {
	winner: { agentId: 'a', label: 'agent1.1' },
	finalAnswer: answer(['Parse the flag', 'Print the lines']),
	answers: [
		{ agentId: 'a', label: 'agent1.1', content: answer(['Parse the flag', 'Print the lines']) },
		{ agentId: 'b', label: 'agent2.1', content: answer(['Parse the flag']) },
	],
};

describe('the plan document', () => {
	it('renders the agreed plan and reads it back', () => {
		const text = planFromRun(result, meta);
		expect(text).toContain('- [ ] **Parse the flag** · 2 of 2\n  - Files: `src/0.ts`\n  - Risk: low — small');
		expect(text).toContain('- [ ] **Print the lines** · only the winner');
		// The model's checkbox stays inside the item, indented: it is no step of the document.
		expect(text).toContain('\n  - [ ] a checkbox in the details\n');
		const doc = parsePlanDocument(text, 'plan.md');
		expect(doc.meta).toEqual({ ...meta, agents: 2 });
		expect(doc.title).toBe('Verbose');
		expect(doc.steps.map((s) => [s.index, s.title, s.agreement, s.done])).toEqual([
			[1, 'Parse the flag', '2 of 2', false],
			[2, 'Print the lines', 'only the winner', false],
		]);
		expect(doc.steps[0]!.body).toBe(
			'- Files: `src/0.ts`\n- Risk: low — small\n- Verify: npm test\n\nDo parse the flag.\n- [ ] a checkbox in the details',
		);
	});

	it('refuses a run whose answers hold no step, saving nothing', () => {
		expect(() => planFromRun({ ...result, finalAnswer: 'No.', answers: [] }, meta)).toThrow(PlanError);
	});

	it('reads what the user made of it: steps reworded, reordered, deleted, a note added', () => {
		const text = `---
massgen: plan
id: ${id}
task: Do it
depth: deep
run: ${id}
agents: 3
---

# My plan

A note of mine.

- [x] **Second, done first**
  - Run: 20261203-151500-xy34
- [ ] Third without bold
  Body line.
`;
		const doc = parsePlanDocument(text, 'p.md');
		expect(doc.steps.map((s) => [s.title, s.done, s.runId, s.agreement])).toEqual([
			['Second, done first', true, '20261203-151500-xy34', null],
			['Third without bold', false, null, null],
		]);
		expect(nextStep(doc)?.index).toBe(2);
		expect(doc.body).toContain('A note of mine.');
	});

	it('says where a document is wrong, by line and column', () => {
		const bad = (front: string) => () => parsePlanDocument(`---\n${front}\n---\n- [ ] x\n`, 'p.md');
		expect(bad(`massgen: plan\nid: ${id}\ntask: t\ndepth: wide\nrun: ${id}`)).toThrow(
			'p.md:5:8: `depth` must be one of shallow, medium, deep, dynamic',
		);
		expect(bad(`massgen: plan\nid: ../x\ntask: t\ndepth: deep\nrun: ${id}`)).toThrow(
			'p.md:3:5: `id` is not a run id',
		);
		expect(bad(`massgen: plan\nid: ${id}\ndepth: deep\nrun: ${id}`)).toThrow(
			'the front matter has no `task`',
		);
		expect(() => parsePlanDocument('# no front matter', 'p.md')).toThrow('p.md:1:1: not a MassGen plan');
		expect(() =>
			parsePlanDocument(
				`---\nmassgen: plan\nid: ${id}\ntask: t\ndepth: deep\nrun: ${id}\n---\n# Empty\n`,
				'p.md',
			),
		).toThrow('p.md:8:1: no steps');
	});

	it('marks a step and keeps every other byte, CRLF endings included', () => {
		const text = planFromRun(result, meta).replace(/\n/g, '\r\n');
		const proposed = markStep(text, 1, { runId: '20261203-151500-aaaa' });
		expect(proposed).toBe(text.replace('· 2 of 2\r\n', '· 2 of 2\r\n  - Run: 20261203-151500-aaaa\r\n'));
		const stopped = markStep(proposed, 1, { stopped: 'rejected in\nreview', runId: '20261203-151600-bbbb' });
		expect(stopped).toBe(
			text.replace(
				'· 2 of 2\r\n',
				'· 2 of 2\r\n  - Run: 20261203-151600-bbbb\r\n  > Stopped: rejected in review\r\n',
			),
		);
		const done = markStep(stopped, 1, { done: true, runId: '20261203-151700-cccc' });
		expect(done).toBe(
			text.replace(
				'- [ ] **Parse the flag** · 2 of 2\r\n',
				'- [x] **Parse the flag** · 2 of 2\r\n  - Run: 20261203-151700-cccc\r\n',
			),
		);
		const doc = parsePlanDocument(done, 'p.md');
		expect(doc.steps[0]).toMatchObject({ done: true, runId: '20261203-151700-cccc', stopped: null });
		expect(nextStep(doc)?.title).toBe('Print the lines');
		expect(() => markStep(done, 3, { runId: '20261203-151700-cccc' })).toThrow('no step 3');
		expect(() => markStep(done, 1, { runId: '../../x' })).toThrow('not a run id');
	});

	it('asks a step run for that step, with the plan as the user left it attached', () => {
		const doc = parsePlanDocument(markStep(planFromRun(result, meta), 1, { done: true, runId: id }), 'p.md');
		const request = stepRequest(doc, '.massgen/plans/x.md', 2);
		expect(request.question).toMatch(
			/^Carry out step 2 of 2 of the plan attached above \(\.massgen\/plans\/x\.md\), and only that step: Print the lines\n/,
		);
		expect(request.question).toContain('- Files: `src/1.ts`');
		expect(request.plan).toEqual({ kind: 'step', planId: id, step: 2, of: 2, title: 'Print the lines' });
		expect(request.attachments).toHaveLength(1);
		const [plan] = request.attachments;
		expect(plan).toMatchObject({ kind: 'text', source: 'plan .massgen/plans/x.md' });
		expect(plan!.kind === 'text' && plan!.text).toContain('- [x] **Parse the flag** · 2 of 2');
		expect(plan!.kind === 'text' && plan!.text).toMatch(/^Task: Add a "verbose" flag\nwith two lines\n/);
		const all = allStepsRequest(doc, '.massgen/plans/x.md');
		expect(all.question).toContain('\n2. Print the lines\n');
		expect(all.question).not.toContain('1. Parse the flag');
		expect(all.plan).toEqual({ kind: 'all', planId: id, of: 2 });
	});

	it("cannot be given execution's marks by a model: a details line like them is escaped", () => {
		const text = planFromRun(
			{
				winner: { agentId: 'a', label: 'l' },
				answers: [],
				finalAnswer: '1. **Do it**\n   - Run: 20261203-151500-evil\n   > Stopped: by the model\n',
			},
			meta,
		);
		expect(text).toContain('  \\- Run: 20261203-151500-evil\n  \\> Stopped: by the model\n');
		expect(parsePlanDocument(text, 'p.md').steps[0]).toMatchObject({
			runId: null,
			stopped: null,
			done: false,
		});
	});

	it('renders no line of a hostile title or check outside its step', () => {
		const hostile = planAgreement({
			winner: { agentId: 'a', label: 'l' },
			answers: [],
			finalAnswer: '1. **Title\n---\nmassgen: x**\n   Verify: ok\n- [ ] **Injected step**\n',
		});
		const text = renderPlanDocument({ ...meta, agents: 1 }, hostile);
		const doc = parsePlanDocument(text, 'p.md');
		expect(doc.meta.id).toBe(id);
		expect(doc.steps.map((s) => s.title)).toEqual(['Title', 'Injected step']);
	});
});
