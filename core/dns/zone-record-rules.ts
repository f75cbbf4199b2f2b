import { nameTooLongMessage, plainName, ancestorsOf } from './names.ts';
import { MAX_NAME_LENGTH, type ListedRecordLike, type RecordLike } from './types.ts';
import type { Target, ZoneAfter, ZoneViolation } from './zone-after.ts';

/**
 * The zone rules a record the change writes must keep, as a table: each rule looks at one record in the zone as it
 * would stand and answers what is wrong, or null. They run in the table's order and the first answer is the
 * record's one violation, so the order is the rules' rank, the most fundamental first (core/dns/README.md).
 */

/** A record the change writes (created, or updated as it would stand), with what every rule reads about it. */
export interface Candidate {
  record: RecordLike;
  target: Target;
  /** Its full name. */
  name: string;
  /** The other records at its name in the zone as it would stand. */
  others: RecordLike[];
}

type Finding = Omit<ZoneViolation, 'target'>;

type RecordRule = (it: Candidate, zone: ZoneAfter) => Finding | null;

function shorten(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function describeRecord(r: ListedRecordLike): string {
  return `${r.type} ${shorten(r.rdata)}${r.managed ? ' (from parking)' : ''}`;
}

const ALIAS_EXCLUDES = new Set<string>(['ALIAS', 'CNAME', 'A', 'AAAA']);

const nameTooLong: RecordRule = ({ record, name }, zone) =>
  name.length > MAX_NAME_LENGTH ? { rule: 'DNS_NAME_TOO_LONG', field: 'name', message: nameTooLongMessage(record.name, zone.zone) } : null;

const soaIsTheProviders: RecordRule = ({ record }) =>
  record.type === 'SOA'
    ? { rule: 'DNS_APEX_NS_SOA', field: 'type', message: `SOA records belong to the DNS provider and cannot be added or changed.` }
    : null;

const apexNameServersAreTheProviders: RecordRule = ({ record }, { zone }) =>
  record.type === 'NS' && record.name === '@'
    ? {
        rule: 'DNS_APEX_NS_SOA',
        field: 'name',
        message: `The name servers of ${zone} itself are set by the DNS provider. To hand a subdomain to other name servers, give the NS record a name such as dev.`,
      }
    : null;

const noCnameAtApex: RecordRule = ({ record }, { zone }) =>
  record.type === 'CNAME' && record.name === '@'
    ? {
        rule: 'DNS_CNAME_AT_APEX',
        field: 'name',
        message: `${zone} itself cannot have a CNAME, because the zone's own records must live there. Use an A or AAAA record for ${zone}, or put the CNAME on a name such as www.`,
      }
    : null;

const aliasNotToItself: RecordRule = ({ record, name }) =>
  record.type === 'ALIAS' && plainName(record.rdata) === name
    ? {
        rule: 'DNS_ALIAS_LOOP',
        field: 'rdata',
        message: `An ALIAS at ${name} cannot point to ${name} itself: it would never resolve. Enter the host name it should follow, such as your platform's (for example app.example.net.).`,
      }
    : null;

/** While parked or forwarded, the apex's addresses are the service's: only an update that changes nothing passes. */
const apexAddressIsTheServices: RecordRule = ({ record, target }, { zone, parked, forwarding, stored }) => {
  if (!(parked || forwarding) || record.name !== '@' || record.managed) return null;
  if (record.type !== 'A' && record.type !== 'AAAA' && record.type !== 'ALIAS') return null;
  const before = target.kind === 'update' ? stored((record as RecordLike & { id: string }).id) : undefined;
  const unchanged = before && before.name === record.name && before.type === record.type && before.rdata === record.rdata && before.ttl === record.ttl;
  if (unchanged) return null;
  const verb = target.kind === 'update' ? 'change' : 'add';
  return {
    rule: 'DNS_PARKING_CONFLICT',
    message: parked
      ? `${zone} is parked, so its address at the apex is the parking page's. Turn parking off first, then ${verb} your ${record.type} record for ${zone}.`
      : `${zone} is forwarded, so its address at the apex is the forwarder's. Turn forwarding off first, then ${verb} your ${record.type} record for ${zone}.`,
  };
};

/** A duplicate is reported on the later copy only. */
const noDuplicate: RecordRule = ({ record, name }, zone) => {
  const same = zone.copiesOf(record);
  if (same.indexOf(record) <= 0) return null;
  const other = same[0];
  return {
    rule: 'DNS_DUPLICATE',
    field: 'rdata',
    conflictsWith: other,
    message: `${name} already has this ${record.type} record (${shorten(record.rdata)})${other.managed ? ' from parking' : ''}. Change the value, or remove the copy.`,
  };
};

/** An ALIAS answers A and AAAA at its name: it excludes a CNAME, A and AAAA records, and a second ALIAS, there. */
const aliasStandsAlone: RecordRule = ({ record, name, others }) => {
  if (record.type === 'ALIAS') {
    const other = others.find((r) => ALIAS_EXCLUDES.has(r.type));
    if (!other) return null;
    const what = other.type === 'ALIAS' ? `already has an ALIAS (to ${shorten(other.rdata)}), and a name follows one target` : `already has ${describeRecord(other)}, and an ALIAS gives ${name} its addresses itself, so it cannot stand beside a CNAME, A or AAAA record`;
    return { rule: 'DNS_ALIAS_CONFLICT', field: 'name', conflictsWith: other, message: `${name} ${what}. Delete the ${other.type} record at ${name} first, or choose another name.` };
  }
  if (record.type !== 'CNAME' && record.type !== 'A' && record.type !== 'AAAA') return null;
  const alias = others.find((r) => r.type === 'ALIAS');
  if (!alias) return null;
  return {
    rule: 'DNS_ALIAS_CONFLICT',
    field: 'name',
    conflictsWith: alias,
    message: `${name} has an ALIAS (following ${shorten(alias.rdata)}), which answers its addresses, so it cannot also hold a ${record.type} record. Delete the ALIAS first, or choose another name.`,
  };
};

/** A CNAME written where other records stand. */
const cnameStandsAlone: RecordRule = ({ record, name, others }) => {
  if (record.type !== 'CNAME' || others.length === 0) return null;
  const other = others[0];
  return {
    rule: 'DNS_CNAME_CONFLICT',
    field: 'name',
    conflictsWith: other,
    message: `${name} already has ${others.length === 1 ? 'a record' : `${others.length} records`} (${describeRecord(other)}), and a name with a CNAME can hold no other record. Delete the other records at ${name} first, or choose another name.`,
  };
};

/** Any record written where a CNAME stands. */
const nothingBesideCname: RecordRule = ({ name, others }) => {
  const cname = others.find((r) => r.type === 'CNAME');
  if (!cname) return null;
  return {
    rule: 'DNS_CNAME_CONFLICT',
    field: 'name',
    conflictsWith: cname,
    message: `${name} has a CNAME (pointing to ${shorten(cname.rdata)}), so it can hold no other record. Delete the CNAME first, or choose another name.`,
  };
};

/** A delegated name (NS below the apex) holds only NS and DS records, whichever of them comes second. */
const delegationHoldsOnlyNsAndDs: RecordRule = ({ record, name, others }) => {
  if (record.name === '@' || record.type === 'DS') return null;
  if (record.type === 'NS') {
    const other = others.find((r) => r.type !== 'NS' && r.type !== 'DS');
    if (!other) return null;
    return {
      rule: 'DNS_NS_EXCLUSIVE',
      field: 'name',
      conflictsWith: other,
      message: `${name} holds a ${describeRecord(other)} record, and a name handed to other name servers (NS) can hold only NS and DS records. Delete or move the other records first.`,
    };
  }
  const ns = others.find((r) => r.type === 'NS');
  if (!ns) return null;
  return {
    rule: 'DNS_NS_EXCLUSIVE',
    field: 'name',
    conflictsWith: ns,
    message: `${name} is handed to other name servers (NS ${shorten(ns.rdata)}), so it holds only NS and DS records. Add the ${record.type} record at those name servers, or remove the NS records first.`,
  };
};

/** Below a delegation the other name servers answer: only glue may sit there. */
const notBelowDelegation: RecordRule = ({ record, name }, zone) => {
  for (const ancestor of ancestorsOf(record.name)) {
    const ns = zone.recordsAt(ancestor).find((r) => r.type === 'NS');
    if (ns && !zone.isGlue(record, ancestor)) {
      return {
        rule: 'DNS_BELOW_DELEGATION',
        field: 'name',
        conflictsWith: ns,
        message: `${name} is below ${zone.at(ancestor)}, which is handed to other name servers (NS ${shorten(ns.rdata)}); they answer for every name below it. Add the record there, or remove the delegation first.`,
      };
    }
  }
  return null;
};

/** A name is delegated only when nothing but glue stands below it. */
const delegationOverNothing: RecordRule = ({ record, name }, zone) => {
  if (record.type !== 'NS' || record.name === '@') return null;
  const child = zone.below(record.name).find((r) => !zone.isGlue(r, record.name));
  if (!child) return null;
  return {
    rule: 'DNS_BELOW_DELEGATION',
    field: 'name',
    conflictsWith: child,
    message: `${name} cannot be handed to other name servers while records exist below it (such as ${describeRecord(child)} at ${zone.at(child.name)}). Delete those first, or delegate another name.`,
  };
};

/** An ALIAS (or a CNAME) whose target leads back to its own name through ALIAS and CNAME records of this zone. */
const noAliasLoop: RecordRule = ({ record }, zone) => {
  if (record.type !== 'ALIAS' && record.type !== 'CNAME') return null;
  const pointers = zone.pointers();
  const start = pointers?.get(record.name);
  if (!pointers || !start) return null;
  const path = [record.name];
  let viaAlias = record.type === 'ALIAS';
  for (let name = start.to; path.length <= 16; ) {
    if (name === record.name) {
      if (!viaAlias) return null;
      const route = [...path, name].map(zone.at).join(' → ');
      return {
        rule: 'DNS_ALIAS_LOOP',
        field: 'rdata',
        message: `${zone.at(record.name)} would point back to itself (${route}): an ALIAS loop never resolves to an address. Point the ${record.type} at a name outside the loop.`,
      };
    }
    const next = pointers.get(name);
    if (!next) return null;
    if (next.type === 'ALIAS') viaAlias = true;
    path.push(name);
    name = next.to;
  }
  return null;
};

/** The rules in rank: the first that finds something is the record's violation. */
const RECORD_RULES: readonly RecordRule[] = [
  nameTooLong,
  soaIsTheProviders,
  apexNameServersAreTheProviders,
  noCnameAtApex,
  aliasNotToItself,
  apexAddressIsTheServices,
  noDuplicate,
  aliasStandsAlone,
  cnameStandsAlone,
  nothingBesideCname,
  delegationHoldsOnlyNsAndDs,
  notBelowDelegation,
  delegationOverNothing,
  noAliasLoop,
];

/** The record's one violation, the most fundamental, or null. */
export function firstViolation(candidate: Candidate, zone: ZoneAfter): ZoneViolation | null {
  for (const rule of RECORD_RULES) {
    const finding = rule(candidate, zone);
    if (finding) return { target: candidate.target, ...finding };
  }
  return null;
}
