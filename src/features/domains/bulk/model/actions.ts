import { parkingRecords } from '#core/dns/parking.ts';
import { weighedRecords } from '#core/dns/listed.ts';
import { checkZoneChange } from '#core/dns/zone-rules.ts';
import type { TemplateRecord } from '#core/dns/templates.ts';
import { isManaged, managedByOf, type DnsRecord } from '#core/wire/dns.ts';
import { isForwardingLoop, type ForwardStatusCode } from '#core/wire/forwarding.ts';
import { noticeOf } from '#core/operations/index.ts';

/** What a step changes, in the records table's words: '+ @ MX 10 mx.example.' / '- @ A 34.123.0.161 (parking)'. */
export type DiffLine = { op: '+' | '-'; text: string };

/** The signed call of one domain's step: the operation and its exact payload (what the wallet signs). */
export type StepCall =
  | { operation: 'toggleDomainParking'; payload: { normalizedDomainName: string; enableParking: boolean; overrideExistingRecords: boolean } }
  | { operation: 'setForwarding'; payload: { normalizedDomainName: string; enabled: boolean; targetUrl: string; statusCode: ForwardStatusCode; keepPath: boolean } }
  | { operation: 'batchCreateDnsRecords'; payload: { zoneName: string; records: TemplateRecord[] } }
  | { operation: 'toggleDnssec'; payload: { normalizedDomainName: string; enabled: boolean } };

/** One domain's part of a bulk change, as assessed against the domain's current state. */
export interface Assessed {
  diff: DiffLine[];
  /** The zone rules' objections (the same rules the service applies): a step with any is not signed. */
  conflicts: string[];
  /** The domain already stands as the step asks: nothing to sign (also how a step interrupted mid-way is known to have landed). */
  applied: boolean;
}

/** What a plan reads about a domain before anything is signed. */
export interface DomainState {
  domain: string;
  records: DnsRecord[];
  forwarding: { enabled: boolean; targetUrl: string; statusCode: number; keepPath: boolean } | null;
  /** Whether the zone is signed, where the service says (ours: getDnssec); absent when not read. */
  dnssec?: boolean;
}

export type BulkChoice =
  | { kind: 'park' }
  | { kind: 'unpark' }
  | { kind: 'forward'; targetUrl: string; statusCode: ForwardStatusCode; keepPath: boolean }
  | { kind: 'records'; build: (zoneName: string) => TemplateRecord[] }
  | { kind: 'dnssec'; enabled: boolean };

/** The call a choice makes for one domain (throws when a template cannot be built for it). */
export function callFor(choice: BulkChoice, domain: string): StepCall {
  switch (choice.kind) {
    case 'park':
    case 'unpark':
      return { operation: 'toggleDomainParking', payload: { normalizedDomainName: domain, enableParking: choice.kind === 'park', overrideExistingRecords: false } };
    case 'forward':
      return { operation: 'setForwarding', payload: { normalizedDomainName: domain, enabled: true, targetUrl: choice.targetUrl, statusCode: choice.statusCode, keepPath: choice.keepPath } };
    case 'records':
      return { operation: 'batchCreateDnsRecords', payload: { zoneName: domain, records: choice.build(domain) } };
    case 'dnssec':
      return { operation: 'toggleDnssec', payload: { normalizedDomainName: domain, enabled: choice.enabled } };
  }
}

const text = (r: { name: string; type: string; rdata: string }) => `${r.name} ${r.type} ${r.rdata}`;

/** A step against a domain's current state: pure, so the diff shown is exactly what the step signs. */
export function assess(call: StepCall, state: DomainState): Assessed {
  const { domain, records } = state;
  const parked = records.some((r) => managedByOf(r) === 'parking');
  const forwarding = state.forwarding?.enabled ?? false;
  switch (call.operation) {
    case 'toggleDomainParking': {
      const enable = call.payload.enableParking;
      if (parked === enable) return { diff: [], conflicts: [], applied: true };
      const diff = parkingRecords(domain).map((r) => ({ op: enable ? ('+' as const) : ('-' as const), text: `${text(r)} (parking)` }));
      if (enable && forwarding) diff.push({ op: '-', text: `forwarding to ${state.forwarding?.targetUrl} (parking turns it off)` });
      return { diff, conflicts: [], applied: false };
    }
    case 'setForwarding': {
      const { targetUrl, statusCode, keepPath } = call.payload;
      const f = state.forwarding;
      if (f?.enabled && f.targetUrl === targetUrl && f.statusCode === statusCode && f.keepPath === keepPath) return { diff: [], conflicts: [], applied: true };
      const diff: DiffLine[] = [{ op: '+', text: `forward to ${targetUrl} (${statusCode}${keepPath ? ', path kept' : ''}); @ A/AAAA the forwarder's (managed)` }];
      if (parked) diff.push(...parkingRecords(domain).map((r) => ({ op: '-' as const, text: `${text(r)} (parking)` })));
      const conflicts = isForwardingLoop(domain, targetUrl) ? [`${targetUrl} is ${domain} itself: visitors would loop`] : [];
      for (const r of records) {
        if (!isManaged(r) && r.name === '@' && (r.type === 'A' || r.type === 'AAAA')) conflicts.push(`Your own ${text(r)} would be served beside the forwarder's address: delete it first`);
      }
      return { diff, conflicts, applied: false };
    }
    case 'batchCreateDnsRecords': {
      const creates = call.payload.records;
      const present = (c: TemplateRecord) => records.some((r) => r.name === c.name && r.type === c.type && r.rdata === c.rdata);
      if (creates.length > 0 && creates.every(present)) return { diff: [], conflicts: [], applied: true };
      const violations = checkZoneChange({ zoneName: domain, existing: weighedRecords(records), change: { creates, updates: [], deletes: [] }, parked, forwarding });
      return { diff: creates.map((r) => ({ op: '+' as const, text: text(r) })), conflicts: violations.map((v) => v.message), applied: false };
    }
    case 'toggleDnssec': {
      const enable = call.payload.enabled;
      if (state.dnssec === undefined) return { diff: [], conflicts: ['DNSSEC needs this project\u2019s service: the service this dashboard is connected to does not offer it'], applied: false };
      if (state.dnssec === enable) return { diff: [], conflicts: [], applied: true };
      const diff: DiffLine[] = enable
        ? [{ op: '+', text: "@ DNSKEY, CDS, CDNSKEY from a new zone key (dnssec)" }, { op: '+', text: 'a signature (RRSIG) over every record set, and NSEC proofs' }]
        : [{ op: '-', text: "@ DNSKEY, CDS, CDNSKEY and the zone key (dnssec)" }, { op: '-', text: 'every signature (RRSIG) and NSEC proof' }];
      return { diff, conflicts: [], applied: false };
    }
  }
}

/** What the wallet signs for a step, in words, said before it opens: its operation's notice (core/operations/). */
export function signedInWords(call: StepCall): string {
  return noticeOf(call.operation, call.payload) ?? call.operation;
}
