/**
 * Webview entry: posts `ready`, takes the host's snapshot, folds live `events` with the shared
 * reducer, and renders at most once per animation frame.
 */
import './components.js';
import type { ChangeOutcomesView, ChangeSetView } from '../src/protocol/changeSetView.js';
import type { HostMessage, PastRunSummary, WebviewMessage } from '../src/protocol/messages.js';
import { reduceRunEvents } from '../src/protocol/reduceRun.js';
import { initialRunState, type RunState } from '../src/protocol/runState.js';
import { isWebviewStrings } from '../src/protocol/stringsTable.js';
import { isPlanProgressView, type PlanProgressView } from '../src/protocol/planProgress.js';
import { linkUrlOf } from './render/markdown.js';
import { Panel } from './render/panel.js';
import { setStrings } from './strings.js';
import { ViewStateStore } from './viewState.js';

const api = acquireVsCodeApi();
const viewState = new ViewStateStore(api);
const post = (message: WebviewMessage) => api.postMessage(message);
const root = document.getElementById('app') ?? document.body;

let state: RunState | null = null;
let runs: readonly PastRunSummary[] = [];
/** `undefined` until the host sends a `change-set` (older hosts never do). */
let changeSet: ChangeSetView | null | undefined;
/** What became of the shown run's files that are no longer pending (undefined: not known). */
let outcomes: ChangeOutcomesView | undefined;
/** Execute Plan's progress (the host's `plan-progress`). */
let plans: readonly PlanProgressView[] = [];
let frame = 0;
let renders = 0;
let restoredPageScroll = false;

/** Built from the first snapshot's strings table: every text the panel shows comes from the host. */
let panel: Panel | undefined;

function scheduleRender(): void {
	if (frame !== 0) return;
	frame = requestAnimationFrame(() => {
		frame = 0;
		if (!panel) return;
		panel.render(state, runs, changeSet, outcomes, plans);
		renders += 1;
		if (typeof MASSGEN_TEST !== 'undefined' && MASSGEN_TEST) {
			(globalThis as { __massgenRenders?: number }).__massgenRenders = renders;
		}
		if (!restoredPageScroll && state !== null) {
			restoredPageScroll = true;
			const y = viewState.scroll('page');
			if (y !== undefined && y > 0) window.scrollTo(0, y);
		}
	});
}

function isHostMessage(data: unknown): data is HostMessage {
	if (typeof data !== 'object' || data === null) return false;
	const message = data as { type?: unknown; events?: unknown; runs?: unknown };
	switch (message.type) {
		case 'snapshot':
			return Array.isArray(message.runs) && isWebviewStrings((message as { strings?: unknown }).strings);
		case 'events':
			return Array.isArray(message.events);
		case 'runs':
			return Array.isArray(message.runs);
		case 'change-set':
			return 'changeSet' in message;
		case 'change-outcomes':
			return (
				typeof (message as { runId?: unknown }).runId === 'string' &&
				Array.isArray((message as { files?: unknown }).files)
			);
		case 'context-results':
			return (
				typeof (message as { requestId?: unknown }).requestId === 'string' &&
				Array.isArray((message as { items?: unknown }).items)
			);
		case 'chips-added':
			return Array.isArray((message as { chips?: unknown }).chips);
		case 'ask-refused':
			return Array.isArray((message as { attachments?: unknown }).attachments);
		case 'focus-ask':
			return true;
		case 'live-runs':
			return Array.isArray(message.runs);
		case 'control-result':
			return (
				typeof (message as { runId?: unknown }).runId === 'string' &&
				typeof (message as { ok?: unknown }).ok === 'boolean'
			);
		case 'plan-progress': {
			const list = (message as { plans?: unknown }).plans;
			return Array.isArray(list) && list.every(isPlanProgressView);
		}
		default:
			return false;
	}
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
	const message = event.data;
	if (!isHostMessage(message)) return;
	switch (message.type) {
		case 'snapshot':
			if (!panel) {
				setStrings(message.strings);
				panel = new Panel(root, post, viewState);
			}
			state = message.state;
			runs = message.runs;
			changeSet = undefined;
			outcomes = undefined;
			panel.reset();
			panel.switcher.update(Array.isArray(message.liveRuns) ? message.liveRuns : []);
			break;
		case 'events':
			state = reduceRunEvents(state ?? initialRunState(), message.events);
			break;
		case 'runs':
			runs = message.runs;
			// Sent after a run ends: a question sent before it has had its answer (even a run with no event).
			panel?.askBox.settled();
			break;
		case 'change-set':
			changeSet = message.changeSet;
			break;
		case 'change-outcomes':
			outcomes = { runId: message.runId, files: message.files };
			break;
		case 'plan-progress':
			plans = message.plans;
			break;
		// The ask box's own answers: no run state changes, nothing to render.
		case 'context-results':
			panel?.askBox.contextResults(message.requestId, message.items);
			return;
		case 'chips-added':
			panel?.askBox.chipsAdded(message.chips, message.notice);
			return;
		case 'ask-refused':
			panel?.askBox.refused(message.question, message.attachments, message.reason);
			return;
		case 'focus-ask':
			panel?.askBox.focus();
			return;
		case 'live-runs':
			panel?.switcher.update(message.runs);
			return;
		case 'control-result':
			panel?.controlResult(message.runId, message.action, message.ok, message.reason);
			return;
	}
	scheduleRender();
});

window.addEventListener(
	'scroll',
	() => {
		if (state !== null) viewState.setScroll('page', Math.round(window.scrollY));
	},
	{ passive: true },
);
window.addEventListener('pagehide', () => viewState.flush());
// A side bar view has no `active` of its own: the host learns from here whether the user is in it.
window.addEventListener('focus', () => post({ type: 'focus', focused: true }));
window.addEventListener('blur', () => post({ type: 'focus', focused: false }));
// A link in an answer never navigates the panel: the host opens it, after the user confirms.
document.addEventListener('click', (event) => {
	const url = linkUrlOf(event.target);
	if (url) post({ type: 'open-link', url });
});

setInterval(() => {
	if (state?.status === 'running' && !document.hidden) panel?.tick();
}, 1_000);

post({ type: 'ready' });
