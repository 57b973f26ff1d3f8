import { addContext } from './addContext';
import { approvals } from './approvals';
import { askBoxChips } from './askBoxChips';
import { askTeam } from './askTeam';
import { attachments } from './attachments';
import { buildTeamFromWalkthrough } from './buildTeamFromWalkthrough';
import { buildTeamKeyboard } from './buildTeamKeyboard';
import { chatModelPicker } from './chatModelPicker';
import { changes, changesPanel, changesPreview } from './changes';
import { changeStateHunk, changeStateMultiDiff, changeStateUndo } from './changeState';
import { costEstimate } from './costEstimate';
import { firstRun } from './firstRun';
import { walkthroughAfterFirstCommand, walkthroughOnFirstView } from './firstUseWalkthrough';
import { executePlan } from './executePlan';
import { liveTeam } from './liveTeam';
import { multiRoot } from './multiRoot';
import { review } from './review';
import { reviewChanges } from './reviewChanges';
import { planToggle } from './planToggle';
import { proposalEdit } from './proposalEdit';
import { reviewLoop } from './reviewLoop';
import { revertRun } from './revertRun';
import { runSwitcher } from './runSwitcher';
import { runsView } from './runsView';
import { runsViewLive } from './runsViewLive';
import type { Scenario } from './scenario';
import { showPanel } from './showPanel';
import { steerPanel } from './steerPanel';
import { teamPanelKeyboard } from './teamPanelKeyboard';
import { teamConfigAndKeys } from './teamConfigAndKeys';
import { walkthrough } from './walkthrough';
import { workspaceConsent } from './workspaceConsent';

export const scenarios: readonly Scenario[] = [
	chatModelPicker,
	showPanel,
	teamPanelKeyboard,
	askTeam,
	liveTeam,
	steerPanel,
	teamConfigAndKeys,
	changes,
	changesPreview,
	changesPanel,
	changeStateUndo,
	changeStateMultiDiff,
	changeStateHunk,
	review,
	reviewChanges,
	reviewLoop,
	proposalEdit,
	executePlan,
	planToggle,
	approvals,
	attachments,
	askBoxChips,
	addContext,
	runsView,
	runsViewLive,
	runSwitcher,
	revertRun,
	multiRoot,
	buildTeamKeyboard,
	buildTeamFromWalkthrough,
	costEstimate,
	workspaceConsent,
	firstRun,
	// Last: it turns on a user setting for its window (restored when it ends).
	walkthrough,
	// A key stored for a moment (removed again): after every scenario that lists keys or providers.
	walkthroughOnFirstView,
	walkthroughAfterFirstCommand,
];
