import { useCallback, useMemo, useState } from 'react';
import type { DnsRecord } from '#core/wire/dns.ts';
import { requestSignIn } from '@/lib/session/wallet-session.ts';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { useToast } from '@/ui/index.ts';
import { addCreates, addDelete, diffDraft, draftSize, EMPTY_DRAFT, planBatches, removeItem, type Plan } from './model/change-set.ts';
import { recordInWords } from './model/describe.ts';
import type { RecordInput } from './model/record-form.ts';
import { BATCH_RECORD_OPERATIONS, planSigning, type RecordTypes } from './model/signing-plan.ts';
import { checkDraft, type Problem } from './model/zone-check.ts';
import { useApplyChangeSet } from './use-apply-change-set.ts';
import { useDraft } from './use-draft.ts';

const EMPTY_PLAN: Plan = { batches: [], skipped: [] };
const NO_PROBLEMS = new Map<string, Problem>();

export interface ChangeSetContext {
  zoneName: string;
  /** The stored records (no write on the way): what the draft is compared with, checked against and planned on. */
  zone: DnsRecord[];
  parked: boolean;
  /** Forwarding is on: the apex addresses are the forwarder's. */
  forwarding: boolean;
  address: string | undefined;
  apiKey: boolean;
  signedOut: boolean;
  signingTypes: RecordTypes;
}

/**
 * The change set of the records page: the draft (kept per account and zone), its diff against the zone, its
 * problems under the zone rules, the plan of signatures, and applying it from the review dialog, with the toasts
 * that say how it went. A batch is all or nothing: what did not land stays in the draft, with the reason.
 */
export function useChangeSet({ zoneName, zone, parked, forwarding, address, apiKey, signedOut, signingTypes }: ChangeSetContext) {
  const { toast } = useToast();
  const [draft, updateDraft] = useDraft(address, zoneName);
  const { apply, running } = useApplyChangeSet(zoneName, address, updateDraft);
  const [reviewing, setReviewing] = useState(false);

  // The draft's views cost a pass over the zone each: only when there is a draft.
  const hasDraft = draftSize(draft) > 0;
  const diff = useMemo(() => (hasDraft ? diffDraft(draft, zone) : []), [hasDraft, draft, zone]);
  const problems = useMemo(() => (hasDraft ? checkDraft(draft, zone, zoneName, parked, forwarding) : NO_PROBLEMS), [hasDraft, draft, zone, zoneName, parked, forwarding]);
  const plan = useMemo(() => (hasDraft ? planBatches(draft, zone, zoneName) : EMPTY_PLAN), [hasDraft, draft, zone, zoneName]);
  // The batches' types are asked once there is a draft: a page that never starts a change set spares the requests.
  const batchTypes = useSigningTypes(BATCH_RECORD_OPERATIONS, hasDraft);
  const typesOf = useMemo(() => ({ ...signingTypes, ...batchTypes }), [signingTypes, batchTypes]);
  const signing = useMemo(() => planSigning(plan, typesOf, { apiKey, zoneName, zone }), [plan, typesOf, apiKey, zoneName, zone]);

  /** Signs and sends the plan; the review dialog shows which signature is under way, and closes when it ends. */
  const applyAll = async () => {
    if (signedOut) {
      setReviewing(false);
      requestSignIn();
      return;
    }
    const result = await apply({ batches: signing.batches, skipped: plan.skipped });
    setReviewing(false);
    if (result.status === 'applied') {
      toast({ tone: 'success', title: 'Change set applied', description: `${result.batches} ${result.batches === 1 ? 'signature' : 'signatures'}; the table shows the zone as it is now.`, durationMs: 5000 });
    } else if (result.status === 'declined') {
      toast({ tone: 'info', title: 'Signature declined', description: 'Nothing more was sent. What did not land stays in the change set.', durationMs: 5000 });
    } else {
      toast({ tone: 'error', title: 'Part of the change set was refused', description: `${result.message} What did not land stays in the change set, with the reason.` });
    }
  };

  const addRecords = useCallback((records: RecordInput[]) => updateDraft((d) => addCreates(d, records)), [updateDraft]);

  /** A zone file's records join the change set, to be reviewed before anything is signed. */
  const importRecords = (records: RecordInput[]) => {
    addRecords(records);
    toast({ tone: 'info', title: `${records.length} ${records.length === 1 ? 'record' : 'records'} added to the change set`, description: 'Review them below, then apply.', durationMs: 4000 });
  };

  /** The review dialog names stored records by what they hold, not by id. */
  const describeId = (id: string) => {
    const record = zone.find((r) => r.id === id);
    return record ? recordInWords(record, zoneName) : id;
  };

  return {
    draft,
    updateDraft,
    hasDraft,
    diff,
    problems,
    plan,
    signing,
    /** The index of the batch being signed and sent, or null. */
    running,
    reviewing,
    review: () => setReviewing(true),
    closeReview: () => setReviewing(false),
    applyAll,
    addRecords,
    importRecords,
    addDelete: (id: string) => updateDraft((d) => addDelete(d, id)),
    remove: (key: string) => updateDraft((d) => removeItem(d, key)),
    discard: () => updateDraft(() => EMPTY_DRAFT),
    describeId,
  };
}

export type ChangeSet = ReturnType<typeof useChangeSet>;
