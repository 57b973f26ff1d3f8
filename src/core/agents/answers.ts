import type { OverlaySnapshot } from '../workspace/types.js';

export interface AnswerRecord {
	readonly agentId: string;
	readonly anonId: string;
	/** `agentN.k`: the k-th accepted answer of anonymous agent N. */
	readonly label: string;
	readonly content: string;
	readonly overlay: OverlaySnapshot;
	/** Run time (ms) when the answer was accepted. */
	readonly acceptedAt: number;
}

/** What one agent execution sees: every agent's latest answer by anonymous id, at one version. */
export interface AnswerSnapshot {
	/** Number of answers accepted in the run when the snapshot was taken. */
	readonly version: number;
	readonly answers: ReadonlyMap<string, AnswerRecord>;
}

/** How an execution reads its peers: the board's answers, read only (the orchestrator alone writes them). */
export interface PeerView {
	snapshot(): AnswerSnapshot;
	/** Answers `agentId` has given in this attempt. */
	answerCount(agentId: string): number;
}
