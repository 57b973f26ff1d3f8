/**
 * A Codex turn's usage, step by step. The CLI reports usage only when its turn completes, but a
 * step of ours may end with the CLI still waiting on a bridged call — and if the run ends then,
 * that turn never completes. The CLI's session file (`CODEX_HOME/sessions/…/rollout-…-<thread>.jsonl`,
 * written as it goes) has one `token_usage_record` per model response: a step that ends on a
 * bridged call counts the responses recorded so far; the turn's completion counts the rest (its
 * reported total less what its earlier steps counted). The CLI may call our tool before it has
 * written the record of the response that made the call, so a step waits (briefly, bounded) until
 * the file holds every bridged call it made with a record after the last. A record that comes
 * later still is counted at the next step; a missing file leaves it all to the completion.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Usage } from '../../../contract/runEvents.js';
import { codexBridgeName } from './codexBridge.js';

/** How long a step waits for the record of the response that made its bridged call. */
const settleTries = 40;
const settlePauseMs = 25;

interface SessionFile {
	/** Each recorded response: its id and usage. */
	readonly records: [string, RecordedUsage][];
	/** How many calls of our bridge it holds, and whether a usage record follows the last. */
	readonly bridgedCalls: number;
	readonly recordAfterLastCall: boolean;
}

interface RecordedUsage {
	readonly input_tokens?: number;
	readonly cached_input_tokens?: number;
	readonly output_tokens?: number;
	readonly reasoning_output_tokens?: number;
}

const zero: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };

export class CodexUsage {
	/** The responses whose usage is counted (by response id). */
	private readonly counted = new Set<string>();
	/** What this turn's earlier steps counted. */
	private inTurn: Usage = zero;

	constructor(private readonly codexHome: string) {}

	/**
	 * The usage of responses recorded since the last look, once the file shows the `calls` bridged
	 * calls the thread has made so far; undefined when there is none.
	 */
	async step(threadId: string | null, calls: number): Promise<Usage | undefined> {
		let file = await this.read(threadId);
		for (
			let tries = 0;
			tries < settleTries && !(file.bridgedCalls >= calls && file.recordAfterLastCall);
			tries++
		) {
			await new Promise((resolve) => setTimeout(resolve, settlePauseMs));
			file = await this.read(threadId);
		}
		const fresh = file.records.filter(([id]) => !this.counted.has(id));
		if (fresh.length === 0) return undefined;
		let usage = zero;
		for (const [id, recorded] of fresh) {
			this.counted.add(id);
			usage = add(usage, recorded);
		}
		this.inTurn = sum(this.inTurn, usage);
		return usage;
	}

	/** The completed turn's usage (as the CLI reported it) less what its earlier steps counted. */
	async completed(threadId: string | null, reported: Usage): Promise<Usage> {
		for (const [id] of (await this.read(threadId)).records) this.counted.add(id);
		const rest = less(reported, this.inTurn);
		this.inTurn = zero;
		return rest;
	}

	private async read(threadId: string | null): Promise<SessionFile> {
		const records: [string, RecordedUsage][] = [];
		let bridgedCalls = 0;
		let recordAfterLastCall = true;
		const files = threadId === null ? [] : await sessionFiles(join(this.codexHome, 'sessions'), threadId);
		for (const file of files) {
			const text = await readFile(file, 'utf8').catch(() => '');
			for (const line of text.split('\n')) {
				const entry = parse(line);
				const payload = entry?.payload;
				if (entry?.type === 'token_usage_record' && payload?.response_id && payload.usage) {
					records.push([payload.response_id, payload.usage]);
					recordAfterLastCall = true;
				} else if (entry?.type === 'response_item' && payload?.namespace === `mcp__${codexBridgeName}`) {
					bridgedCalls++;
					recordAfterLastCall = false;
				}
			}
		}
		return { records, bridgedCalls, recordAfterLastCall };
	}
}

interface SessionEntry {
	readonly type?: string;
	readonly payload?: {
		readonly response_id?: string;
		readonly usage?: RecordedUsage;
		readonly namespace?: string;
	};
}

/** A line of the session file; undefined for one still being written (the next look reads it whole). */
function parse(line: string): SessionEntry | undefined {
	if (!line.includes('"token_usage_record"') && !line.includes('"response_item"')) return undefined;
	try {
		return JSON.parse(line) as SessionEntry;
	} catch {
		return undefined;
	}
}

/** The thread's session files under `dir` (dated folders). */
async function sessionFiles(dir: string, threadId: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
	const files: string[] = [];
	for (const entry of entries) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) files.push(...(await sessionFiles(path, threadId)));
		else if (entry.name.endsWith(`-${threadId}.jsonl`)) files.push(path);
	}
	return files;
}

function add(usage: Usage, recorded: RecordedUsage): Usage {
	return sum(usage, {
		inputTokens: recorded.input_tokens ?? 0,
		outputTokens: recorded.output_tokens ?? 0,
		cachedInputTokens: recorded.cached_input_tokens ?? 0,
		reasoningTokens: recorded.reasoning_output_tokens ?? 0,
	});
}

function sum(a: Usage, b: Usage): Usage {
	return combine(a, b, 1);
}

/** `a − b`, never below zero (a completion that reports less than its steps counted). */
function less(a: Usage, b: Usage): Usage {
	return combine(a, b, -1);
}

function combine(a: Usage, b: Usage, sign: 1 | -1): Usage {
	const at = (x: number | undefined, y: number | undefined) => Math.max(0, (x ?? 0) + sign * (y ?? 0));
	return {
		inputTokens: at(a.inputTokens, b.inputTokens),
		outputTokens: at(a.outputTokens, b.outputTokens),
		cachedInputTokens: at(a.cachedInputTokens, b.cachedInputTokens),
		reasoningTokens: at(a.reasoningTokens, b.reasoningTokens),
	};
}
