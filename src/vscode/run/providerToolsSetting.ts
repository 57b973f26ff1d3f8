/**
 * `massgen.providerTools` (allow | ask | deny, default ask): the run's one decision on provider-side
 * web search and code execution (docs/protocol.md). The strictest of the user, workspace and folder values
 * applies: a cloned repository's settings can refuse the tools, never allow them for the user. `ask`
 * is one notification per run, before the first request that would enable them: not a modal, so the
 * window stays usable while the run waits (to look at the team, say); dismissing it or cancelling the
 * run denies.
 */
import * as vscode from 'vscode';
import type { ProviderToolsAgent, ProviderToolsPolicy } from '../../core/run/providerToolsDecision.js';
import { readProviderToolsMode, settings } from '../common/settings.js';
import type { ShownQuestions } from '../common/shownQuestions.js';

const providerToolsSettingKey = settings.providerTools.key;

/** `questions`: where the question is recorded when asked (the composition root's, read by in-host tests). */
export function providerToolsPolicy(
	folder: vscode.Uri,
	signal?: AbortSignal,
	questions?: ShownQuestions,
): ProviderToolsPolicy {
	const mode = readProviderToolsMode(folder);
	const ask = (agents: readonly ProviderToolsAgent[]) => askOnce(agents, signal, questions);
	return { mode, source: providerToolsSettingKey, ...(mode === 'ask' ? { ask } : {}) };
}

async function askOnce(
	agents: readonly ProviderToolsAgent[],
	signal: AbortSignal | undefined,
	questions: ShownQuestions | undefined,
): Promise<boolean> {
	const allow = vscode.l10n.t('Allow for This Run');
	const deny = vscode.l10n.t('Deny');
	const who = agents.map((a) => `${a.agentId} (${a.tools.join(', ')})`).join(', ');
	const message = vscode.l10n.t(
		'MassGen: allow provider-side tools for this run? {0} would use tools the provider runs on its side, so they cannot be approved call by call. Denied, the agents answer without them; {1} decides without asking.',
		who,
		providerToolsSettingKey,
	);
	questions?.record('providerTools', message);
	const cancelled = new Promise<undefined>((resolve) => {
		if (signal?.aborted) resolve(undefined);
		signal?.addEventListener('abort', () => resolve(undefined), { once: true });
	});
	const choice = await Promise.race([vscode.window.showWarningMessage(message, allow, deny), cancelled]);
	return choice === allow;
}
