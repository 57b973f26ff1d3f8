// What the change review needs once a run has changes: loaded with import(), so activation
// does not load the diff library.
export { buildReviewChangeSet } from '../../core/changes/changeSet';
export { HunkApplyError } from '../../core/changes/hunks';
export { acceptPending } from './acceptPending';
export { PendingChangeSet } from './pendingChangeSet';
