// What the change review needs once a run has changes: loaded with import(), so activation
// does not load the diff library.
export { buildReviewChangeSet } from '../../core/changes/changeSet.js';
export { HunkApplyError } from '../../core/changes/hunks.js';
export { acceptPending } from './acceptPending.js';
export { PendingChangeSet } from './pendingChangeSet.js';
export { appendChangeLog, readChangeLog } from '../../core/runStore/changeLog.js';
export { recordedProtectedPaths } from '../../core/changes/revertRun.js';
export { revertAccepted } from './revertAccepted.js';
