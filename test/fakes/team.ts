import { answerIdsShown } from '../../src/core/workflow/markers.js';
import type { RunEvent, RunEventOf, RunEventType } from '../../src/contract/runEvents.js';
import { Orchestrator } from '../../src/core/orchestrator/orchestrator.js';
import type { AgentSpec, OrchestratorSettings, RunOptions } from '../../src/core/orchestrator/types.js';
import type { RunResult } from '../../src/contract/runResult.js';
import type { ChatRequest } from '../../src/core/providers/spec/model.js';
import {
	ScriptedModel,
	type ScriptedHandler,
	type ScriptedModelOptions,
	type ScriptedReply,
} from '../../src/core/providers/vendors/scriptedModel.js';
import { createWorkspace } from '../../src/core/workspace/createWorkspace.js';
import type { ManualClock } from '../support/manualClock.js';
import { makeWorkspaceDir } from '../support/tempTree.js';

/** Re-exported: the team tests build their workspaces with it. */
export { makeWorkspaceDir };

export interface TeamMember {
	readonly id: string;
	readonly handler: ScriptedHandler;
	readonly options?: ScriptedModelOptions;
	readonly spec?: Partial<AgentSpec>;
}

export interface TeamRun {
	readonly events: RunEvent[];
	readonly result: RunResult;
	readonly models: Map<string, ScriptedModel>;
	of<T extends RunEventType>(type: T): RunEventOf<T>[];
}

/** Fast settings for tests: no real backoff waits. */
export const fastSettings: Partial<OrchestratorSettings> = { retryBaseDelayMs: 1, retryMaxDelayMs: 5 };

export async function runTeam(
	members: readonly TeamMember[],
	options: {
		question?: string;
		root?: string;
		settings?: Partial<OrchestratorSettings>;
		signal?: AbortSignal;
		/** The run's time: the run is driven on it to its end (real time when omitted). */
		clock?: ManualClock;
		/** Given the orchestrator before it starts: the test steers it or says Finish now from a handler. */
		control?: (orchestrator: Orchestrator) => void;
	} & Partial<
		Pick<RunOptions, 'history' | 'anonymousOrder' | 'random' | 'attachments' | 'instructions'>
	> = {},
): Promise<TeamRun> {
	const models = new Map<string, ScriptedModel>();
	const agents: AgentSpec[] = members.map((member) => {
		const model = new ScriptedModel(member.handler, member.options);
		models.set(member.id, model);
		return { id: member.id, model, ...member.spec };
	});
	const workspace = await createWorkspace(options.root ?? makeWorkspaceDir());
	const orchestrator = new Orchestrator({
		question: options.question ?? 'What is 2 + 2?',
		workspace,
		agents,
		settings: { ...fastSettings, ...options.settings },
		signal: options.signal,
		history: options.history,
		attachments: options.attachments,
		...(options.instructions ? { instructions: options.instructions } : {}),
		anonymousOrder: options.anonymousOrder ?? 'config',
		random: options.random,
		clock: options.clock,
	});
	options.control?.(orchestrator);
	const events: RunEvent[] = [];
	const collect = async () => {
		for await (const event of orchestrator.run()) events.push(event);
	};
	await (options.clock ? options.clock.drive(collect()) : collect());
	return {
		events,
		result: orchestrator.result!,
		models,
		of: <T extends RunEventType>(type: T) =>
			events.filter((event): event is RunEventOf<T> => event.type === type),
	};
}

/** Helpers that read a request the way a model would. */
export const read = {
	isPresentation: (request: ChatRequest) => !request.tools.some((tool) => tool.name === 'new_answer'),
	/**
	 * The ids a vote can name: those whose answers the conversation has shown (CURRENT ANSWERS, UPDATEs),
	 * in id order, as a model reads them (`vote`'s enum lists every id of the run).
	 */
	voteOptions(request: ChatRequest): string[] {
		if (!request.tools.some((tool) => tool.name === 'vote')) return [];
		return answerIdsShown(request.messages.map((message) => message.content));
	},
	lastMessage: (request: ChatRequest) => request.messages.at(-1),
	allText: (request: ChatRequest) => JSON.stringify([request.system, request.messages, request.tools]),
};

export const answer = (content: string): ScriptedReply => ({
	toolCalls: [{ name: 'new_answer', arguments: { content } }],
});
export const vote = (agentId: string, reason = 'best'): ScriptedReply => ({
	toolCalls: [{ name: 'vote', arguments: { agent_id: agentId, reason } }],
});

/**
 * A quick look at the workspace before answering: a decision point at which answers that landed
 * meanwhile reach the agent, so it is no longer certain to answer and the others stop waiting for it.
 */
export const look: ScriptedReply = { toolCalls: [{ name: 'list_directory', arguments: {} }], latencyMs: 5 };

/** `handler`, after a first call that is `look`. */
export function lookFirst(handler: ScriptedHandler): ScriptedHandler {
	let looked = false;
	return (request, call) => {
		if (read.isPresentation(request) || looked) return handler(request, call);
		looked = true;
		return look;
	};
}

/**
 * The common policy: answer once with `content`, then vote for `target(options)`; present `final`.
 */
export function answerThenVote(
	content: string,
	target: (options: string[]) => string = (o) => o[0]!,
	final = `final:${content}`,
): ScriptedHandler {
	let answered = false;
	return (request) => {
		if (read.isPresentation(request)) return { text: final };
		const options = read.voteOptions(request);
		if (!answered || options.length === 0) {
			answered = true;
			return answer(content);
		}
		return vote(target(options), `I like ${target(options)}`);
	};
}

/** Plays replies in order by call number; presentation calls get `final`. The last reply repeats. */
export function sequence(replies: readonly ScriptedReply[], final = 'final answer'): ScriptedHandler {
	let call = 0;
	return (request) =>
		read.isPresentation(request) ? { text: final } : replies[Math.min(call++, replies.length - 1)]!;
}
