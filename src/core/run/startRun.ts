import type { RunEvent } from '../../contract/runEvents.js';
import { errorMessage } from '../util/errorMessage.js';
import { EventQueue } from '../util/eventQueue.js';
import type { PreparedRun } from './prepareRun.js';
import { notRunning, type RunControl } from './runControl.js';
import type { RunHost } from './runHost.js';
import { runSession, type RunSessionOutcome } from './runSession.js';

/** A started run (agents-js `Runner`'s result: a stream to read and a result to await) and its controls. */
export interface RunHandle extends RunControl {
	/** Every event, redacted and logged, in order; ends after `run-end` (or when the run did not start). */
	readonly events: AsyncIterable<RunEvent>;
	/**
	 * The finished run, once its log is closed. Rejects with `AttachmentError` (an attachment cannot
	 * be given) or `EstimateDeclinedError` (the host declined the estimate): no run directory then.
	 */
	readonly result: Promise<RunSessionOutcome>;
	/** The run directory and id, once made (before the first event). */
	readonly started: { readonly runDir: string; readonly runId: string } | undefined;
}

/** Starts a prepared run on the host's capabilities; nothing is written to the workspace. */
export function startRun(prepared: PreparedRun, host: RunHost): RunHandle {
	const { request, team, keys } = prepared;
	const events = new EventQueue<RunEvent>();
	let started: RunHandle['started'];
	let control: RunControl = notRunning;
	const result = runSession({
		team,
		keys,
		workspaceRoot: request.workspaceRoot,
		question: request.question,
		...(prepared.followUp ?? (request.history ? { history: request.history } : {})),
		...(request.attachments ? { attachments: request.attachments } : {}),
		...(request.revision ? { revision: request.revision } : {}),
		...(request.startFrom ? { startFrom: request.startFrom } : {}),
		...(request.readOnly ? { readOnly: true } : {}),
		...(request.plan ? { plan: request.plan } : {}),
		...(request.contextLimits ? { contextLimits: request.contextLimits } : {}),
		// A workspace the user does not trust gives the agents no instructions of its own.
		instructions: request.instructions !== false && host.workspaceTrusted,
		signal: request.signal,
		shippedConfigsDir: host.paths.shippedConfigsDir,
		...(host.models ? { createModel: host.models.create } : {}),
		...(request.coordinationTimeoutMs ? { coordinationTimeoutMs: request.coordinationTimeoutMs } : {}),
		...(host.secretPaths ? { secretPaths: host.secretPaths } : {}),
		...(host.paths.ripgrep ? { ripgrep: host.paths.ripgrep } : {}),
		...(host.paths.codingAgents ? { codingAgentPaths: host.paths.codingAgents } : {}),
		...(host.tools ? { tools: host.tools } : {}),
		...(prepared.workspaceTrust ? { workspaceTrust: prepared.workspaceTrust } : {}),
		...(request.budget ? { budget: request.budget } : {}),
		...(host.confirmEstimate ? { confirmEstimate: host.confirmEstimate.bind(host) } : {}),
		...(host.providerTools ? { providerTools: host.providerTools } : {}),
		onControl: (given) => (control = given),
		onRedactor: (learned) => host.learnSecrets?.(learned),
		onRunDir: (runDir, runId) => (started = { runDir, runId }),
		onEvent: (event) => events.push(event),
		onLogError: (error) => host.log.error(`run log: ${errorMessage(error)}`),
	}).finally(() => {
		control = notRunning;
		events.close();
	});
	// Awaited by the caller after (or beside) the events; a refusal is theirs to handle, not unhandled here.
	result.catch(() => undefined);
	return {
		events,
		result,
		get started() {
			return started;
		},
		stopAgent: (agentId) => control.stopAgent(agentId),
		steer: (message) => control.steer(message),
		finishNow: () => control.finishNow(),
	};
}
