import { safeText } from '#core/wire/text.ts';
import { z } from 'zod';
import { batchDeleteInput, batchUpdateInput, zoneRecordInput, type AppliedDnsChanges, type DnsRecord } from '#core/wire/dns.ts';
import { zoneName } from '#core/wire/common.ts';
import { checkZoneChange, type ZoneChange } from '#core/dns/zone-rules.ts';
import type { RecordLike } from '#core/dns/types.ts';
import type { HistoryPage } from '#core/wire/history.ts';
import type { Forwarding } from '#core/wire/forwarding.ts';
import { call, ToolRefusal, type Tool, type ToolContext } from './tool-kit.ts';
import { PLAN_TTL_MS, holderOf, newId, type Plan } from './stores.ts';

const DEFAULT_TTL = 3600;
const recordFields = z.object({ name: z.string(), type: z.string(), rdata: z.string(), ttl: z.number() });
type Fields = z.infer<typeof recordFields>;

const previewInput = z.object({
  zoneName,
  creates: z.array(zoneRecordInput.extend({ ttl: zoneRecordInput.shape.ttl.optional().describe(`Seconds; ${DEFAULT_TTL} when left out`) })).max(1000).default([]),
  updates: batchUpdateInput.shape.records.element.array().max(1000).default([]).describe('Each names a record by its id (from list_dns_records) and the fields to change'),
  deletes: batchDeleteInput.shape.recordsIds.element.array().max(1000).default([]).describe('Ids of the records to delete'),
});

const diffLine = z.object({ op: z.enum(['create', 'update', 'delete']), before: recordFields.nullable(), after: recordFields.nullable(), words: z.string() });
const previewOutput = z.object({
  planId: z.string(),
  zoneName: z.string(),
  expiresAt: z.string(),
  serial: z.number().nullable(),
  diff: z.array(diffLine),
  summary: z.string(),
});

const fieldsOf = (r: Fields): Fields => ({ name: r.name, type: r.type, rdata: r.rdata, ttl: r.ttl });
const say = (r: Fields) => `${r.type} ${r.name} → ${r.rdata} (TTL ${r.ttl})`;

/** The zone as the service has it now: its records, whether parked or forwarded, and its newest history entry. */
async function zoneNow(ctx: ToolContext, zone: string) {
  const [records, parked, forwarding, history] = await Promise.all([
    call(ctx, 'getDnsRecords', { zoneName: zone }) as Promise<DnsRecord[]>,
    call(ctx, 'isDomainParked', { normalizedDomainName: zone }) as Promise<{ parked: boolean }>,
    call(ctx, 'getForwarding', { normalizedDomainName: zone }) as Promise<Forwarding>,
    call(ctx, 'getZoneHistory', { zoneName: zone, limit: 1 }) as Promise<HistoryPage>,
  ]);
  const [newest] = history.entries;
  return { records, parked: parked.parked, forwarding: forwarding.enabled, head: { id: newest?.id ?? null, serial: newest?.serial ?? null } };
}

const managedOf = (record: DnsRecord) => {
  const metadata = (record.metadata ?? {}) as { managed?: boolean; managedBy?: string };
  return metadata.managed === true ? { managed: true, managedBy: metadata.managedBy } : {};
};

export const previewDnsChanges: Tool = {
  name: 'preview_dns_changes',
  title: 'Preview DNS changes',
  description:
    'Checks a change set (records to create, update by id, delete by id) against the zone rules and answers the diff in words and a planId, valid 10 minutes, ' +
    'for this API key and this state of the zone. Nothing is written. Show the diff to the person and ask them to confirm before apply_dns_changes.',
  input: previewInput,
  output: previewOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, ctx) {
    const input = args as z.output<typeof previewInput>;
    if (!ctx.credential.apiKey) throw new ToolRefusal('A change needs an API key: without one, use prepare_signature so the person’s wallet signs it');
    if (input.creates.length + input.updates.length + input.deletes.length === 0) throw new ToolRefusal('The change set is empty: name records to create, update or delete', { creates: ['Add at least one change'] });
    const zone = input.zoneName;
    const now = await zoneNow(ctx, zone);
    const byId = new Map(now.records.map((r) => [r.id, r]));
    const fields: Record<string, string[]> = {};
    const updates: Plan['updates'] = [];
    input.updates.forEach((u, i) => {
      const stored = byId.get(u.id);
      if (!stored) return void (fields[`updates.${i}.id`] = [`No record ${u.id} in ${zone}`]);
      const after = { name: u.name ?? stored.name, type: u.type ?? stored.type, rdata: u.rdata ?? stored.rdata, ttl: u.ttl ?? stored.ttl };
      updates.push({ id: u.id, ...after, before: fieldsOf(stored) });
    });
    const deletes: Plan['deletes'] = [];
    input.deletes.forEach((id, i) => {
      const stored = byId.get(id);
      if (!stored) return void (fields[`deletes.${i}`] = [`No record ${id} in ${zone}`]);
      deletes.push({ id, ...fieldsOf(stored) });
    });
    if (Object.keys(fields).length > 0) throw new ToolRefusal('Some records of the change set are not in the zone', fields);
    const creates = input.creates.map((c) => ({ name: c.name, type: c.type, rdata: c.rdata, ttl: c.ttl ?? DEFAULT_TTL }));
    const change: ZoneChange = { creates: creates as RecordLike[], updates: updates.map((u) => ({ id: u.id, ...fieldsOf(u) })) as Array<RecordLike & { id: string }>, deletes: deletes.map((d) => d.id) };
    const existing = now.records.map((r) => ({ ...fieldsOf(r), id: r.id, ...managedOf(r) })) as RecordLike[];
    const violations = checkZoneChange({ zoneName: zone, existing, change, parked: now.parked, forwarding: now.forwarding });
    if (violations.length > 0) {
      const byField: Record<string, string[]> = {};
      for (const v of violations) {
        const list = v.target.kind === 'create' ? 'creates' : v.target.kind === 'update' ? 'updates' : 'deletes';
        const key = v.target.kind === 'delete' ? `${list}.${v.target.index}` : `${list}.${v.target.index}${v.field ? `.${v.field}` : ''}`;
        (byField[key] ??= []).push(`${v.message} (${v.rule})`);
      }
      throw new ToolRefusal(`The change set breaks the zone's rules: ${violations.map((v) => v.message).join('; ')}`, byField);
    }
    const at = ctx.now().getTime();
    const plan: Plan = { id: newId('plan'), holder: holderOf(ctx.credential), zoneName: zone, head: now.head, creates, updates, deletes, expiresAt: at + PLAN_TTL_MS };
    await ctx.stores.savePlan(plan);
    const diff = [
      ...deletes.map((d) => ({ op: 'delete' as const, before: fieldsOf(d), after: null, words: `Delete ${say(d)}` })),
      ...updates.map((u) => ({ op: 'update' as const, before: u.before, after: fieldsOf(u), words: `Change ${say(u.before)} to ${say(u)}` })),
      ...creates.map((c) => ({ op: 'create' as const, before: null, after: c, words: `Add ${say(c)}` })),
    ];
    const counts = [creates.length && `${creates.length} to add`, updates.length && `${updates.length} to change`, deletes.length && `${deletes.length} to delete`].filter(Boolean).join(', ');
    return { planId: plan.id, zoneName: zone, expiresAt: new Date(plan.expiresAt).toISOString(), serial: now.head.serial, diff, summary: `${zone}: ${counts}` };
  },
};

const applyOutput = z.object({
  planId: z.string(),
  zoneName: z.string(),
  applied: z.object({ created: z.number(), updated: z.number(), deleted: z.number() }),
  serial: z.number().nullable(),
  createdIds: z.array(z.string()),
});

export const applyDnsChanges: Tool = {
  name: 'apply_dns_changes',
  title: 'Apply previewed DNS changes',
  description:
    'Applies a plan from preview_dns_changes, exactly as previewed, all or nothing, once. Refused when the plan expired (10 minutes), belongs to another key, or ' +
    'the zone changed since the preview (preview again then). Call it only after the person confirmed the diff preview_dns_changes showed.',
  input: z.object({ planId: safeText(z.string().min(1).max(100)) }),
  output: applyOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(args, ctx) {
    const { planId } = args as { planId: string };
    // One use, whatever follows: a plan refused as stale is gone too.
    const plan = await ctx.stores.takePlan(planId, holderOf(ctx.credential), ctx.now().getTime());
    if (!plan) throw new ToolRefusal(`No plan ${planId} for this key: it expired (plans last 10 minutes) or was applied already; preview again`, { planId: ['Unknown or expired plan'] });
    const now = await zoneNow(ctx, plan.zoneName);
    if (now.head.id !== plan.head.id) {
      throw new ToolRefusal(`${plan.zoneName} changed since the preview (serial ${plan.head.serial ?? 'none'} then, ${now.head.serial ?? 'none'} now): preview the changes again and show the person the new diff`, { planId: ['Stale plan: the zone changed since it was previewed'] });
    }
    return applyPlan(ctx, plan);
  },
};

/** The plan as one applyDnsChanges: one transaction, one serial step, one history entry; refused whole or applied whole. */
async function applyPlan(ctx: ToolContext, plan: Plan) {
  const zone = plan.zoneName;
  const applied = (await call(ctx, 'applyDnsChanges', {
    zoneName: zone,
    creates: plan.creates,
    updates: plan.updates.map((u) => ({ id: u.id, ...fieldsOf(u) })),
    deletes: plan.deletes.map((d) => d.id),
  }).catch((error: unknown) => {
    throw error instanceof ToolRefusal ? new ToolRefusal(`Nothing was applied: ${error.message}`, error.fields, error.status) : error;
  })) as AppliedDnsChanges;
  const history = (await call(ctx, 'getZoneHistory', { zoneName: zone, limit: 1 })) as HistoryPage;
  return {
    planId: plan.id,
    zoneName: zone,
    applied: { created: applied.created.length, updated: applied.updated.length, deleted: applied.deleted.length },
    serial: history.entries[0]?.serial ?? null,
    createdIds: applied.created.map((r) => r.id),
  };
}
