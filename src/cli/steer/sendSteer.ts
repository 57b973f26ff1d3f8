/**
 * Hands one parsed steering command to the running run and says what became of it, in one line
 * for stderr: the agents it will reach, or why it was refused (the core's reason, as it is).
 */
import type { RunControl } from '../../core/run/runControl.js';
import type { SteerCommand } from './steerText.js';

export interface SteerReport {
	readonly ok: boolean;
	/** `message 2 sent to a, b (their votes reset)`, `finishing now`, or the refusal. */
	readonly text: string;
}

export function sendSteer(
	control: Pick<RunControl, 'steer' | 'finishNow'>,
	command: SteerCommand,
): SteerReport {
	if (command.kind === 'refused') return { ok: false, text: `refused: ${command.reason}` };
	if (command.kind === 'finish') {
		const finished = control.finishNow();
		return finished.ok
			? { ok: true, text: 'finishing now: no new round; the most-voted answer is presented' }
			: { ok: false, text: `refused: ${finished.reason}` };
	}
	const sent = control.steer(command.message);
	if (!sent.ok) return { ok: false, text: `refused: ${sent.reason}` };
	const votes = command.message.noteOnly ? 'note only: votes stand' : 'their votes reset';
	return { ok: true, text: `message ${sent.id} sent to ${sent.agents.join(', ')} (${votes})` };
}
