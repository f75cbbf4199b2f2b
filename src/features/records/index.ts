// What other features may use of the records feature: the zone's records query, and the change set (the draft of
// one account and zone, and its edits), which the History tab fills with a revert to be reviewed and signed here.
export { recordsQueryOptions } from './api/get-records.ts';
export { useDraft } from './use-draft.ts';
export { addCreate, addDelete, setUpdate, EMPTY_DRAFT, type Draft } from './model/change-set.ts';
export type { RecordInput } from './model/record-form.ts';
