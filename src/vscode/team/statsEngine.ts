/**
 * What the Team view's Stats, Show Team Stats and Suggest a Team load at their first use, not at
 * activation: the run store's readers (zod) behind the stats core. `TeamStats` reaches it only
 * through `import()` (test/unit/vscode/lazyActivation.test.ts).
 */
export { readRunFacts } from '../../core/stats/runFacts.js';
export { leaderboard } from '../../core/stats/leaderboard.js';
export { suggestTeam } from '../../core/stats/suggestTeam.js';
export { statsReport } from '../../core/stats/statsReport.js';
