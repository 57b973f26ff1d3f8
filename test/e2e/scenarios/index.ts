import { askTeam } from './askTeam';
import type { Scenario } from './scenario';
import { showPanel } from './showPanel';

export const scenarios: readonly Scenario[] = [showPanel, askTeam];
