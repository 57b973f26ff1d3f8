import type * as vscode from 'vscode';
import { commandIds } from '../commandIds.js';
import type { Feature, FeatureFactory } from '../feature.js';
import type { RunService } from '../run/runTypes.js';
import type { ChangePrompts } from './changePrompts.js';
import { ChangeReview } from './changeReview.js';

export interface ChangeReviewOptions {
	readonly runs: RunService;
	readonly log: vscode.LogOutputChannel;
	readonly prompts?: ChangePrompts;
	readonly idleMs?: number;
}

export interface ChangeReviewFeature extends Feature {
	readonly review: ChangeReview;
}

/**
 * Builds the change review: its ChangeActions (for the panel) and the handlers of Accept/Reject
 * Changes, Accept/Reject File, Next/Previous Changed File and Review Changes.
 */
export function registerChangeReview(options: ChangeReviewOptions): ChangeReviewFeature {
	const review = new ChangeReview(options);
	return {
		review,
		changeActions: review,
		commands: {
			[commandIds.acceptChanges]: () => review.accept(),
			[commandIds.rejectChanges]: () => review.reject(),
			[commandIds.acceptFile]: (arg) => review.acceptFile(arg),
			[commandIds.rejectFile]: (arg) => review.rejectFile(arg),
			[commandIds.nextChangedFile]: () => review.step(1),
			[commandIds.previousChangedFile]: () => review.step(-1),
			[commandIds.reviewChanges]: () => review.review(),
		},
		dispose: () => review.dispose(),
	};
}

/** The factory src/extension.ts lists in `features`. */
export const changeReviewFeature: FeatureFactory = ({ runs, log }) => registerChangeReview({ runs, log });
