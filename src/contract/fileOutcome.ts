/**
 * What became of one file of a run's change set, as the run's record (`changes-log.jsonl`) says:
 * the core reads it (`core/changes/acceptRecord.ts` `fileOutcomes`), the panel marks each file with it.
 */
export type FileOutcome = 'accepted' | 'partly-accepted' | 'rejected' | 'reverted';
