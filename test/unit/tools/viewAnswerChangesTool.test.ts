import { afterEach, describe, expect, it } from 'vitest';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import type { OverlaySnapshot } from '../../../src/core/workspace/types.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

async function setup() {
	const workspace = await createWorkspace(await makeTree({ 'src/a.ts': 'one\ntwo\n', 'old.txt': 'old\n' }));
	const peer = workspace.createOverlay();
	await peer.write('src/a.ts', 'one\n2\n');
	await peer.write('src/b.ts', 'new\n');
	await peer.delete('old.txt');
	const unchanged = workspace.createOverlay();
	await unchanged.write('src/a.ts', 'one\ntwo\n');
	const answers = new Map<string, OverlaySnapshot>([
		['agent1', peer.snapshot()],
		['agent2', unchanged.snapshot()],
	]);
	// The caller's own edits must not leak into the diff it views.
	const own = workspace.createOverlay();
	await own.write('src/a.ts', 'mine\n');
	const toolbox = createToolbox({ overlay: own, writable: false, answers });
	const view = (args: Record<string, unknown>) =>
		toolbox.execute('view_answer_changes', args, new AbortController().signal);
	return { toolbox, view };
}

describe('view_answer_changes', () => {
	it('lists the answer ids in the enum', async () => {
		const { toolbox } = await setup();
		const definition = toolbox.definitions.find((tool) => tool.name === 'view_answer_changes');
		expect(definition?.parameters).toMatchObject({
			properties: { agent_id: { type: 'string', enum: ['agent1', 'agent2'] } },
			required: ['agent_id'],
		});
	});

	it('shows the answer’s diff against the base', async () => {
		const { view } = await setup();
		const { text, isError } = await view({ agent_id: 'agent1' });
		expect(isError).toBe(false);
		expect(text).toContain("agent1's answer changes 3 file(s): 1 added, 1 modified, 1 deleted.");
		expect(text).toContain(
			'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n',
		);
		expect(text).toContain('diff --git a/src/b.ts b/src/b.ts\nnew file mode 100644\n');
		expect(text).toContain('diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n');
		expect(text).not.toContain('mine');
	});

	it('says when an answer changed nothing, and rejects unknown ids', async () => {
		const { view } = await setup();
		expect(await view({ agent_id: 'agent2' })).toEqual({
			text: "no file changes in agent2's answer",
			isError: false,
		});
		expect(await view({ agent_id: 'agent9' })).toEqual({
			text: "view_answer_changes: unknown agent_id 'agent9'; valid ids: agent1, agent2",
			isError: true,
		});
		expect(await view({})).toEqual({
			text: "view_answer_changes: 'agent_id' must be a string",
			isError: true,
		});
	});
});

describe('view_answer_changes on a huge rewrite', () => {
	it('answers with a bounded diff (a plain Myers diff of this takes ~18 s; the bound: test/bench/timeBounds.bench.ts)', async () => {
		const base = Array.from({ length: 50_000 }, (_, i) => `line ${i} of a generated file\n`).join('');
		const workspace = await createWorkspace(await makeTree({ 'gen.txt': base }));
		const peer = workspace.createOverlay();
		await peer.write('gen.txt', Array.from({ length: 5_000 }, (_, i) => `new ${i}\n`).join(''));
		const toolbox = createToolbox({
			overlay: workspace.createOverlay(),
			writable: false,
			answers: new Map([['agent1', peer.snapshot()]]),
		});
		const outcome = await toolbox.execute(
			'view_answer_changes',
			{ agent_id: 'agent1' },
			new AbortController().signal,
		);
		expect(outcome.isError).toBe(false);
		expect(outcome.text).toMatch(
			/^agent1's answer changes 1 file\(s\): 0 added, 1 modified, 0 deleted\.\n\ndiff --git a\/gen\.txt b\/gen\.txt\n/,
		);
	});
});
