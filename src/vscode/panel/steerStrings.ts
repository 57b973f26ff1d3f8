import type { l10n } from 'vscode';

/**
 * The panel's texts for steering a running team (the message box, a lane's Message button and the
 * user's messages in it, Finish now, why coordination ended) and the header's usage by agent (see
 * `panelStrings.ts`).
 */
export function steerStrings(vscode: { readonly l10n: Pick<typeof l10n, 't'> }) {
	return {
		steerHeading: vscode.l10n.t('Message the team'),
		steerLabel: vscode.l10n.t('Message to the team'),
		steerPlaceholder: vscode.l10n.t('Tell the agents something while they work (Enter sends)'),
		steerTarget: vscode.l10n.t('To'),
		steerAllAgents: vscode.l10n.t('All agents'),
		steerNoteOnly: vscode.l10n.t('Note only (keep votes)'),
		steerNoteOnlyTitle: vscode.l10n.t(
			'The agents read your message, and the votes they cast still count. Without it, the agents it reaches vote again.',
		),
		steerSend: vscode.l10n.t('Send'),
		steerSendAria: vscode.l10n.t('Send the message to the team'),
		steerSent: vscode.l10n.t('Sent: each agent reads it at its next model call.'),
		steerRefused: vscode.l10n.t('Not sent: {0}'),
		messageAgent: vscode.l10n.t('Message'),
		messageAgentAria: vscode.l10n.t('Message {0}'),
		userMessagesTo: vscode.l10n.t('Your messages to {0}'),
		youSaid: vscode.l10n.t('You'),
		messageToAll: vscode.l10n.t('to all agents'),
		messageToThisAgent: vscode.l10n.t('to this agent only'),
		messageNoteOnly: vscode.l10n.t('note only'),
		messageDelivered: vscode.l10n.t('read'),
		messagePending: vscode.l10n.t('waiting for its next call'),
		invalidatedByYou: vscode.l10n.t('withdrawn by your message'),
		finishNow: vscode.l10n.t('Finish now'),
		finishNowAria: vscode.l10n.t('Finish now: the agent with the most votes presents'),
		finishNowTitle: vscode.l10n.t(
			'No new round starts: as soon as there is an answer, the agent with the most votes (none: the latest answer) presents.',
		),
		finishRefused: vscode.l10n.t('Finish now refused: {0}'),
		coordinationEnded: vscode.l10n.t('Coordination ended: {0}'),
		coordinationEndedSaved: vscode.l10n.t('Coordination ended: {0}. Saved: {1}'),
		endConsensus: vscode.l10n.t('every live agent agreed'),
		endQuorum: vscode.l10n.t('{0} of the {1} votes needed backed {2} (quorum)'),
		endQuorumBare: vscode.l10n.t('a quorum agreed'),
		endFinishedByUser: vscode.l10n.t('you finished it'),
		endTimeout: vscode.l10n.t('time ran out'),
		endBudget: vscode.l10n.t('the run budget ran out'),
		endExhausted: vscode.l10n.t('no agent could go on'),
		endCancelled: vscode.l10n.t('cancelled'),
		savedCalls: vscode.l10n.t('{0} call stopped|{0} calls stopped'),
		savedAgents: vscode.l10n.t('not waited for {0}'),
		savedCost: vscode.l10n.t('about {0} not spent'),
		usageByAgent: vscode.l10n.t('Usage by agent'),
		usageAgent: vscode.l10n.t('Agent'),
		usageInput: vscode.l10n.t('Input'),
		usageOutput: vscode.l10n.t('Output'),
		usageCached: vscode.l10n.t('Cached'),
		usageCost: vscode.l10n.t('Cost'),
		usageTotal: vscode.l10n.t('Total'),
		usageBudgetCost: vscode.l10n.t('Budget: {0} of {1}'),
		usageBudgetTokens: vscode.l10n.t('{0} of {1} tokens'),
	};
}
