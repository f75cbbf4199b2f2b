import { checkZoneChange, type ZoneChange, type ZoneViolation } from '#core/dns/zone-rules.ts';
import { weighedRecords } from '#core/dns/listed.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { Draft } from './change-set.ts';

export interface Problem {
  message: string;
  field?: ZoneViolation['field'];
}

/** The draft as core's ZoneChange, with each index mapped back to the draft item's key. */
function draftToChange(draft: Draft): { change: ZoneChange; keys: Record<ZoneViolation['target']['kind'], string[]> } {
  return {
    change: {
      creates: draft.creates.map((c) => c.record),
      updates: draft.updates.map((u) => ({ ...u.record, id: u.id })),
      deletes: draft.deletes.map((d) => d.id),
    },
    keys: { create: draft.creates.map((c) => c.key), update: draft.updates.map((u) => u.key), delete: draft.deletes.map((d) => d.key) },
  };
}

/**
 * Runs the contract's zone rules (the module the service runs) on the whole draft against the loaded zone,
 * managed records, parking and forwarding included, and gives the problem of each draft item by key.
 */
export function checkDraft(draft: Draft, zone: DnsRecord[], zoneName: string, parked: boolean, forwarding = false): Map<string, Problem> {
  const { change, keys } = draftToChange(draft);
  const violations = checkZoneChange({ zoneName, existing: weighedRecords(zone), change, parked, forwarding });
  const problems = new Map<string, Problem>();
  for (const v of violations) {
    const key = keys[v.target.kind][v.target.index];
    if (key && !problems.has(key)) problems.set(key, { message: v.message, field: v.field });
  }
  return problems;
}

/** The same rules for one quick change: the first problem, if any. */
export function checkOne(change: ZoneChange, zone: DnsRecord[], zoneName: string, parked: boolean, forwarding = false): Problem | null {
  const [first] = checkZoneChange({ zoneName, existing: weighedRecords(zone), change, parked, forwarding });
  return first ? { message: first.message, field: first.field } : null;
}
