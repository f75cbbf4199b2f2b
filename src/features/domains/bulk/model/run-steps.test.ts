// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { RECORD_TEMPLATES } from '#core/dns/templates.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { assess, callFor, signedInWords, type DomainState } from './actions.ts';
import { loadRun, type BulkRun, type BulkStep } from './bulk-run.ts';
import { runSteps, type RunDeps } from './run-steps.ts';

const microsoft = RECORD_TEMPLATES.find((t) => t.id === 'microsoft-365')!;
const mail = { kind: 'records' as const, build: (zone: string) => microsoft.build({}, zone) };
const record = (zoneName: string, name: string, type: DnsRecord['type'], rdata: string): DnsRecord => ({
  id: crypto.randomUUID(), zoneName, name, type, class: 'IN', ttl: 3600, rdata, metadata: null, createdAt: '', updatedAt: '',
});

/** A tiny in-memory service: zones by name; a sent batch lands in its zone unless `refuse` says no. */
function world(zones: Record<string, DnsRecord[]>, options: { decline?: string; refuse?: string } = {}) {
  const sent: string[] = [];
  const deps: RunDeps = {
    read: async (domain): Promise<DomainState> => ({ domain, records: zones[domain], forwarding: null }),
    send: async (step: BulkStep) => {
      if (step.domain === options.decline) throw new Error('declined');
      sent.push(step.domain);
      if (step.domain === options.refuse) throw new Error('refused by the service');
      if (step.call.operation === 'batchCreateDnsRecords') zones[step.domain].push(...step.call.payload.records.map((r) => record(step.domain, r.name, r.type, r.rdata)));
    },
    isDeclined: (error) => (error as Error).message === 'declined',
    explain: (error) => (error as Error).message,
    now: () => 0,
    onChange: () => undefined,
  };
  return { deps, sent };
}
const planned = (account: string, zones: Record<string, DnsRecord[]>): BulkRun => ({
  account,
  title: 'Google Workspace',
  steps: Object.keys(zones).map((domain) => {
    const call = callFor(mail, domain);
    return { domain, call, status: 'planned' as const, ...assess(call, { domain, records: zones[domain], forwarding: null }) };
  }),
});

describe('a bulk run', () => {
  it('plans each domain with the zone rules: a record where the template puts its CNAME is a conflict', () => {
    const zones = { 'a.com': [], 'b.com': [record('b.com', 'autodiscover', 'A', '192.0.2.1')] };
    const run = planned('0xabc', zones);
    expect(run.steps[0].diff.map((d) => `${d.op} ${d.text}`)).toEqual([
      '+ @ MX 0 a-com.mail.protection.outlook.com.',
      '+ autodiscover CNAME autodiscover.outlook.com.',
      '+ @ TXT "v=spf1 include:spf.protection.outlook.com -all"',
    ]);
    expect(run.steps[0].conflicts).toEqual([]);
    expect(signedInWords(run.steps[0].call)).toBe('Create 3 records in a.com (CreateRecords)');
    expect(run.steps[1].conflicts).toEqual([expect.stringMatching(/autodiscover/)]);
  });

  it('sends one domain at a time, skips a conflict found just before signing, and keeps the run per account', async () => {
    const zones: Record<string, DnsRecord[]> = { 'a.com': [], 'b.com': [], 'c.com': [] };
    const run = planned('0xAbC', zones);
    // A record at b.com's autodiscover, added after the plan: the template's CNAME cannot sit beside it.
    zones['b.com'].push(record('b.com', 'autodiscover', 'TXT', '"hello"'));
    const { deps, sent } = world(zones);
    const after = await runSteps(run, (s) => s.status === 'planned', deps);
    expect(after.steps.map((s) => s.status)).toEqual(['done', 'failed', 'done']);
    expect(after.steps[1].error).toMatch(/autodiscover/);
    expect(sent).toEqual(['a.com', 'c.com']);
    expect(loadRun('0xabc')?.steps.map((s) => s.status)).toEqual(['done', 'failed', 'done']);
  });

  it('a declined signature stops the run; resuming sends only what remains, and a step that landed before a reload is not sent again', async () => {
    const zones: Record<string, DnsRecord[]> = { 'a.com': [], 'b.com': [], 'c.com': [] };
    const stopped = await runSteps(planned('0x1', zones), (s) => s.status === 'planned', world(zones, { decline: 'b.com' }).deps);
    expect(stopped.steps.map((s) => s.status)).toEqual(['done', 'planned', 'planned']);
    // As if the page reloaded while b.com's answer was on its way: it landed, but the run still says "sending".
    const b = stopped.steps[1].call;
    if (b.operation !== 'batchCreateDnsRecords') throw new Error('expected a batch');
    zones['b.com'].push(...b.payload.records.map((r) => record('b.com', r.name, r.type, r.rdata)));
    const reloaded: BulkRun = { ...stopped, steps: stopped.steps.map((s, i) => (i === 1 ? { ...s, status: 'sending' } : s)) };
    const { deps, sent } = world(zones);
    const finished = await runSteps(reloaded, (s) => s.status === 'planned' || s.status === 'sending', deps);
    expect(finished.steps.map((s) => s.status)).toEqual(['done', 'done', 'done']);
    expect(sent).toEqual(['c.com']);
  });

  it('a refusal by the service fails that domain and the run goes on', async () => {
    const zones: Record<string, DnsRecord[]> = { 'a.com': [], 'b.com': [] };
    const { deps, sent } = world(zones, { refuse: 'a.com' });
    const after = await runSteps(planned('0x2', zones), () => true, deps);
    expect(after.steps.map((s) => [s.status, s.error])).toEqual([['failed', 'refused by the service'], ['done', undefined]]);
    expect(sent).toEqual(['a.com', 'b.com']);
  });
});
