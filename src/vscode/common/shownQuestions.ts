/** The questions the extension asks as notifications outside the approval flow (its own are `ApprovalPrompts.notifications`). */
export type QuestionKind = 'providerTools' | 'answerLink' | 'noModel';

/** How many of each kind are kept: enough for a test to find the one it waits for. */
const kept = 20;

/**
 * The questions put to the user, by kind, newest last: one per extension (made by the composition
 * root, `composeRunPanel`) and handed to whoever asks, so the in-host tests read what their own
 * graph asked instead of a module-wide list.
 */
export class ShownQuestions {
	private readonly _byKind = new Map<QuestionKind, string[]>();

	record(kind: QuestionKind, message: string): void {
		const list = this._byKind.get(kind) ?? [];
		list.push(message);
		if (list.length > kept) list.shift();
		this._byKind.set(kind, list);
	}

	/** The questions of `kind` shown so far (at most the last 20), oldest first. */
	of(kind: QuestionKind): readonly string[] {
		return this._byKind.get(kind) ?? [];
	}
}
