import type * as vscode from 'vscode';
import { commandIds } from '../commandIds.js';
import type { Feature, FeatureFactory } from '../feature.js';
import type { RunService } from '../run/runTypes.js';
import { SelectionReview } from './selectionReview.js';

export interface SelectionReviewFeature extends Feature {
	readonly review: SelectionReview;
}

/** Builds the selection review: Review Selection, Dismiss Finding and Clear Review Comments. */
export function registerSelectionReview(options: {
	runs: RunService;
	log: vscode.LogOutputChannel;
	contextLines?: number;
}): SelectionReviewFeature {
	const review = new SelectionReview(options);
	return {
		review,
		findingThreads: () => review.threads(),
		commands: {
			[commandIds.reviewSelection]: () => review.reviewSelection(),
			[commandIds.dismissFinding]: (thread) => review.dismiss(thread),
			[commandIds.clearReviewComments]: () => review.clear(),
		},
		dispose: () => review.dispose(),
	};
}

/** The factory src/extension.ts lists in `features`. */
export const selectionReviewFeature: FeatureFactory = ({ runs, log }) =>
	registerSelectionReview({ runs, log });
