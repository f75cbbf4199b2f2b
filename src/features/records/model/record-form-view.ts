import { fullName, validateRecordName } from '#core/dns/names.ts';
import { parseTags } from '#core/dns/record-notes.ts';
import { parseTtl, ttlInWords, TTL_PRESETS } from '#core/dns/ttl.ts';
import type { Result } from '#core/dns/types.ts';
import { recordInWords } from './describe.ts';
import type { SubmitMode } from './form-mode.ts';
import { conversionText, toALabelValues, type NameConversion } from './idna-fields.ts';
import { fieldsFor } from './record-fields.ts';
import { toRecordInput, type EditableType, type RecordFormValues, type RecordInput } from './record-form.ts';
import type { Problem } from './zone-check.ts';

/** The TTL select's choice for a value that is none of the presets. */
export const CUSTOM_TTL = 'custom';

/** The main field of a type: where zone-rule problems about the data land. */
function mainField(type: EditableType): string {
  const fields = fieldsFor(type);
  return fields[fields.length - 1].key;
}

/** The field a zone-rule problem is shown on: the name, the type, or the data's main field. */
export function fieldOfZoneProblem(problem: Problem, type: EditableType): string {
  return problem.field === 'name' ? 'name' : problem.field === 'type' ? 'type' : mainField(type);
}

/** The field a service's error names is shown on: its record data on the main field, any tag on the tags. */
export function fieldOfServerError(field: string, type: EditableType): string {
  return field === 'rdata' ? mainField(type) : field.startsWith('tags') ? 'tags' : field;
}

/** The record without its notes: what is sent where the service keeps none. */
function withoutRecordNotes({ comment: _comment, tags: _tags, ...record }: RecordInput): RecordInput {
  return record;
}

/** The record a form's values make, as it is sent: without notes where none are on offer (an edit keeps the stored ones). */
export function recordToSend(values: RecordFormValues, zoneName: string, notes: boolean): RecordInput | null {
  const typed = toRecordInput(values, zoneName);
  return typed && !notes ? withoutRecordNotes(typed) : typed;
}

/** What the form shows of the values as they are typed, before anything is submitted. */
export interface RecordFormView {
  /** The A-label conversions of names typed in Unicode: shown in both forms, the A-label is what is sent. */
  conversions: NameConversion[];
  conversionOf(field: string): NameConversion | undefined;
  /** The full name the record would have, when the name is valid. */
  preview: string | null;
  ttl: Result<number>;
  /** The TTL preset the value is, or CUSTOM_TTL. */
  presetMatch: string;
  /** The record as it would be sent, when the values make one. */
  record: RecordInput | null;
}

export function recordFormView(values: RecordFormValues, zoneName: string, notes: boolean): RecordFormView {
  const idna = toALabelValues({ ...values, name: values.name ?? '' });
  const name = validateRecordName(idna.values.name, zoneName);
  const ttl = parseTtl(values.ttl ?? '');
  return {
    conversions: idna.conversions,
    conversionOf: (field) => idna.conversions.find((c) => c.field === field),
    preview: name.ok ? fullName(name.value, zoneName) : null,
    ttl,
    presetMatch: ttl.ok && TTL_PRESETS.some((p) => p.seconds === ttl.value) ? String(ttl.value) : CUSTOM_TTL,
    record: recordToSend(values, zoneName, notes),
  };
}

/** The name field's hint: the A-label of a Unicode name, then the full name it makes. */
export function nameHint(view: RecordFormView, zoneName: string): string {
  const conversion = view.conversionOf('name');
  return [
    conversion ? `${conversionText(conversion)}.` : '',
    view.preview ? `Full name: ${view.preview} (@ is ${zoneName} itself)` : 'Relative to the zone, e.g. www or @ for the zone itself',
  ]
    .join(' ')
    .trim();
}

/** ALIAS is explained where one is written, and where a CNAME is tried at the apex. */
export const showsAliasExplained = (type: EditableType, name: string | undefined) => type === 'ALIAS' || (type === 'CNAME' && (name ?? '').trim() === '@');

/** What pressing Enter does: unpark and sign when the record meets parking, else sign, else keep it in the draft. */
export const enterMode = (unparkFirst: boolean, canSignNow: boolean): SubmitMode => (unparkFirst ? 'unpark-and-sign' : canSignNow ? 'sign' : 'draft');

/** The notice's words for the notes: what an addition carries, or what an edit changes. */
function notesLines(record: RecordInput, initial: RecordFormValues | null): string[] {
  if (record.comment === undefined && record.tags === undefined) return [];
  const comment = record.comment ?? '';
  const tags = record.tags ?? [];
  if (!initial) {
    return [comment ? `Comment: “${comment}”` : '', tags.length > 0 ? `Tags: ${tags.join(', ')}` : ''].filter(Boolean);
  }
  const before = { comment: (initial.comment ?? '').trim(), tags: parseTags(initial.tags ?? '') };
  const lines: string[] = [];
  if (before.comment !== comment) lines.push(comment ? `Comment changed to “${comment}”` : `Comment “${before.comment}” removed`);
  if (before.tags.join(',') !== tags.join(',')) lines.push(tags.length > 0 ? `Tags changed to ${tags.join(', ')} (were ${before.tags.join(', ') || 'none'})` : `Tags ${before.tags.join(', ')} removed`);
  return lines;
}

const verbOf = (mode: 'add' | 'edit') => (mode === 'add' ? 'Add' : 'Change');

/** What the wallet will be asked to sign when the record is saved with unparking first: two steps. */
export function unparkAndSignLines(record: RecordInput, zoneName: string, mode: 'add' | 'edit'): string[] {
  return [
    `1. Stop parking ${zoneName}: the parking records go, your own records stay`,
    `2. ${verbOf(mode)} one record in ${zoneName}: ${recordInWords(record, zoneName)}, TTL ${ttlInWords(record.ttl)}`,
  ];
}

/** What the wallet will be asked to sign for the record: the record, its TTL, its notes, names in DNS form, the type's notes. */
export function signLines(input: {
  record: RecordInput;
  zoneName: string;
  mode: 'add' | 'edit';
  initial: RecordFormValues;
  conversions: NameConversion[];
  typeNotes: string[];
}): string[] {
  const { record, zoneName, mode, conversions } = input;
  return [
    `${verbOf(mode)} one record in ${zoneName}: ${recordInWords(record, zoneName)}`,
    `TTL ${ttlInWords(record.ttl)}`,
    ...notesLines(record, mode === 'edit' ? input.initial : null),
    ...(conversions.length > 0 ? [`International names are signed in their DNS form: ${conversions.map(conversionText).join(', ')}`] : []),
    ...input.typeNotes,
  ];
}
