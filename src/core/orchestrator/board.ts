import type { VoteScores } from '../../contract/runEvents.js';
import type { AnswerRecord, AnswerSnapshot, PeerView } from '../agents/answers.js';
import type { OverlaySnapshot } from '../workspace/types.js';

export interface VoteRecord {
	readonly voter: string;
	readonly votedForAgent: string;
	readonly label: string;
	readonly reason: string;
	/** With a checklist: the voter's scores of every answer it saw. */
	readonly scores?: VoteScores;
}

/**
 * The coordination state shared by all agents: one anonymous mapping for the whole run,
 * accepted answers, and the votes that are currently valid.
 */
export class Board implements PeerView {
	private readonly anonByAgent = new Map<string, string>();
	private readonly agentByAnon = new Map<string, string>();
	private readonly latest = new Map<string, AnswerRecord>();
	private readonly counts = new Map<string, number>();
	private readonly validVotes = new Map<string, VoteRecord>();
	private version = 0;

	/** `order` lists config ids in the order they get `agent1..agentN`. */
	constructor(order: readonly string[]) {
		order.forEach((agentId, index) => {
			const anonId = `agent${index + 1}`;
			this.anonByAgent.set(agentId, anonId);
			this.agentByAnon.set(anonId, agentId);
		});
	}

	/** `agent1..agentN`. */
	get anonIds(): string[] {
		return [...this.agentByAnon.keys()];
	}

	anonOf(agentId: string): string {
		return this.anonByAgent.get(agentId)!;
	}

	agentOf(anonId: string): string | undefined {
		return this.agentByAnon.get(anonId);
	}

	get answerVersion(): number {
		return this.version;
	}

	snapshot(): AnswerSnapshot {
		const answers = new Map<string, AnswerRecord>();
		for (const anonId of [...this.agentByAnon.keys()]) {
			const record = this.latest.get(this.agentByAnon.get(anonId)!);
			if (record) answers.set(anonId, record);
		}
		return { version: this.version, answers };
	}

	answerCount(agentId: string): number {
		return this.counts.get(agentId) ?? 0;
	}

	latestAnswer(agentId: string): AnswerRecord | undefined {
		return this.latest.get(agentId);
	}

	latestAnswers(): AnswerRecord[] {
		return [...this.snapshot().answers.values()];
	}

	/** Accepts an answer; every vote cast so far becomes invalid (returned, voters first to last). */
	acceptAnswer(agentId: string, content: string, overlay: OverlaySnapshot, now: number) {
		const count = this.answerCount(agentId) + 1;
		this.counts.set(agentId, count);
		const anonId = this.anonOf(agentId);
		const record: AnswerRecord = {
			agentId,
			anonId,
			label: `${anonId}.${count}`,
			content,
			overlay,
			acceptedAt: now,
		};
		this.latest.set(agentId, record);
		this.version++;
		const invalidated = [...this.validVotes.keys()];
		this.validVotes.clear();
		return { record, invalidated };
	}

	/** A vote counts only when the voter's snapshot held every answer accepted so far. */
	castVote(
		voter: string,
		target: AnswerRecord,
		reason: string,
		snapshotVersion: number,
		scores?: VoteScores,
	): VoteRecord | 'stale' {
		if (snapshotVersion !== this.version) return 'stale';
		const vote: VoteRecord = {
			voter,
			votedForAgent: target.agentId,
			label: target.label,
			reason,
			...(scores ? { scores } : {}),
		};
		this.validVotes.set(voter, vote);
		return vote;
	}

	hasVote(agentId: string): boolean {
		return this.validVotes.has(agentId);
	}

	removeVote(agentId: string): void {
		this.validVotes.delete(agentId);
	}

	votes(): VoteRecord[] {
		return [...this.validVotes.values()];
	}
}
