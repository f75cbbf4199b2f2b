import { z } from 'zod';
import { RECORD_TYPES, type RecordType } from '#core/wire/dns.ts';
import { validateRecordName } from '#core/dns/names.ts';
import { parseTtl } from '#core/dns/ttl.ts';
import { commentProblem, parseTags, tagsProblems } from '#core/dns/record-notes.ts';
import { checkFields, decomposeRdata, emptyFields, fieldsFor, STRUCTURED_FIELDS } from './record-fields.ts';
import { toALabelValues } from './idna-fields.ts';

/** SOA belongs to the provider (the contract refuses writes of it), so the form does not offer it. */
export const EDITABLE_TYPES = RECORD_TYPES.filter((t) => t !== 'SOA');
export type EditableType = (typeof EDITABLE_TYPES)[number];

/** The everyday types first in the type picker. */
export const COMMON_TYPES: EditableType[] = ['A', 'AAAA', 'CNAME', 'ALIAS', 'MX', 'TXT', 'NS', 'SRV', 'CAA'];

/** When to use ALIAS rather than CNAME, in the form beside either type. */
export const ALIAS_EXPLAINED =
  'Use ALIAS where a CNAME cannot go: at the zone itself (@), or at a name that also needs MX or TXT records, to point it at a platform’s host name (Vercel, Netlify, a load balancer). ' +
  'This service looks up the target’s addresses and answers them as A and AAAA records (signed with DNSSEC on), following their changes. Anywhere else a CNAME is simpler: resolvers follow it themselves.';

/** What the form holds: strings as typed (tags as typed, separated by commas or spaces), plus the type's own fields (see record-fields.ts). */
export type RecordFormValues = { type: EditableType; name: string; ttl: string } & Record<string, string>;

/** What the form gives when valid: a record as the service takes it, names relative to the zone. */
export interface RecordInput {
  name: string;
  type: RecordType;
  rdata: string;
  ttl: number;
  /** Its notes (core/dns/record-notes.ts): absent where they are not known (production keeps none). */
  comment?: string;
  tags?: string[];
}

const base = { name: z.string(), ttl: z.string(), comment: z.string().optional(), tags: z.string().optional() };

/** The notes' rules on the form's values, at their fields, with the rule in words (the service runs the same). */
function checkNotes(values: RecordFormValues, ctx: z.RefinementCtx) {
  const comment = commentProblem(values.comment ?? '');
  if (comment) ctx.addIssue({ code: 'custom', path: ['comment'], message: comment });
  const tags = parseTags(values.tags ?? '');
  const problems = tagsProblems(tags);
  if (problems.length > 0) {
    const { index, message } = problems[0];
    ctx.addIssue({ code: 'custom', path: ['tags'], message: index === null ? message : `Tag ${index + 1}: ${message}` });
  }
}

function memberFor(type: EditableType, zoneName: string) {
  const shape: Record<string, z.ZodString> = {};
  for (const spec of fieldsFor(type)) shape[spec.key] = z.string();
  return z
    .object({ type: z.literal(type), ...base, ...shape })
    .superRefine((typed, ctx) => {
      // Names typed in Unicode are checked as the A-labels that will be signed.
      const idna = toALabelValues(typed as RecordFormValues);
      const values = idna.values;
      for (const [path, message] of Object.entries(idna.errors)) ctx.addIssue({ code: 'custom', path: [path], message });
      const name = validateRecordName(values.name, zoneName);
      if (!name.ok && !idna.errors.name) ctx.addIssue({ code: 'custom', path: ['name'], message: name.message });
      const ttl = parseTtl(values.ttl);
      if (!ttl.ok) ctx.addIssue({ code: 'custom', path: ['ttl'], message: ttl.message });
      checkNotes(typed as RecordFormValues, ctx);
      const checked = checkFields(type, values);
      if (!checked.ok) {
        for (const [path, message] of Object.entries(checked.errors)) {
          if (!idna.errors[path]) ctx.addIssue({ code: 'custom', path: [path], message });
        }
      }
    });
}

/**
 * The record form's schema for one zone: a discriminated union on `type`, one member per record type with that
 * type's fields. Parsing gives the form's values; `toRecordInput` turns them into the record to send.
 */
export function recordFormSchema(zoneName: string) {
  const members = EDITABLE_TYPES.map((type) => memberFor(type, zoneName));
  return z.discriminatedUnion('type', members as unknown as [ReturnType<typeof memberFor>, ...ReturnType<typeof memberFor>[]]);
}

/** Valid form values -> the record (name relative, Unicode names as A-labels, TTL in seconds, rdata in the stored form). */
export function toRecordInput(typed: RecordFormValues, zoneName: string): RecordInput | null {
  const idna = toALabelValues(typed);
  if (Object.keys(idna.errors).length > 0) return null;
  const values = idna.values;
  const name = validateRecordName(values.name, zoneName);
  const ttl = parseTtl(values.ttl);
  const checked = checkFields(values.type, values);
  if (!name.ok || !ttl.ok || !checked.ok) return null;
  const tags = parseTags(values.tags ?? '');
  if (commentProblem(values.comment ?? '') || tagsProblems(tags).length > 0) return null;
  return { name: name.value, type: values.type, rdata: checked.rdata, ttl: ttl.value, comment: (values.comment ?? '').trim(), tags };
}

/** A record -> the form's values, for editing. */
export function toFormValues(record: RecordInput): RecordFormValues {
  const type = (record.type === 'SOA' ? 'TXT' : record.type) as EditableType;
  return { ...decomposeRdata(type, record.rdata), type, name: record.name, ttl: String(record.ttl), comment: record.comment ?? '', tags: (record.tags ?? []).join(', ') } as RecordFormValues;
}

export function blankFormValues(type: EditableType = 'A', name = '@', ttl = 3600): RecordFormValues {
  return { ...emptyFields(type), type, name, ttl: String(ttl), comment: '', tags: '' } as RecordFormValues;
}

/** When the person switches type, keep name and TTL, and the value when both types have a single field. */
export function switchType(values: RecordFormValues, type: EditableType): RecordFormValues {
  const next = blankFormValues(type, values.name, Number(values.ttl) || 3600);
  next.ttl = values.ttl;
  next.comment = values.comment ?? '';
  next.tags = values.tags ?? '';
  if (!STRUCTURED_FIELDS[type] && !STRUCTURED_FIELDS[values.type] && values.value !== undefined) next.value = values.value;
  return next;
}
