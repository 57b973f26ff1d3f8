import { describe, expect, it } from 'vitest';
import type { Attachment } from '../../../src/core/context/attachment.js';
import { ScriptedModel } from '../../../src/core/providers/vendors/scriptedModel.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { answerThenVote, runTeam } from '../../fakes/team.js';

/** A scripted model that says it takes images (as the SDK adapters do). */
class SeeingModel extends ScriptedModel {
	override readonly capabilities = { tools: true, reasoning: true, images: true };
}

const file: Attachment = { kind: 'file', path: 'src/a.ts', text: 'export const a = 1;' };
const image: Attachment = {
	kind: 'image',
	path: 'shot.png',
	mediaType: 'image/png',
	data: new Uint8Array([1, 2, 3]),
};

describe('the no-images notice', () => {
	it('is one notice per agent whose model cannot take the attached images, right after run-start', async () => {
		const seeing = new SeeingModel(answerThenVote('Seen'), { modelId: 'vision-1' });
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('Alpha'), spec: { model: seeing } },
				{ id: 'bob', handler: answerThenVote('Beta'), options: { modelId: 'text-only-1' } },
			],
			{ attachments: [file, image] },
		);
		expect(run.result.status).toBe('completed');
		const notices = run.of('notice');
		expect(notices.map((notice) => [notice.agentId, notice.message])).toEqual([
			['bob', 'bob (scripted/text-only-1) cannot take images: it gets the text attachments only'],
		]);
		expect(run.events[1]).toEqual(notices[0]);
		expect(reduceRunEvents(initialRunState(), run.events).notices).toEqual([notices[0]!.message]);
		// The model that takes images got them; the other got the text only.
		expect(seeing.requests[0]!.messages[0]).toMatchObject({ images: [{ mediaType: 'image/png' }] });
		expect(run.models.get('bob')!.requests[0]!.messages[0]).not.toHaveProperty('images');
	});

	it('is absent when nothing attached is an image', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('Alpha') },
				{ id: 'bob', handler: answerThenVote('Beta') },
			],
			{ attachments: [file] },
		);
		expect(run.of('notice')).toEqual([]);
	});
});
