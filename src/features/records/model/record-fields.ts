import type { RecordType } from '#core/wire/dns.ts';
import { normaliseHost } from '#core/dns/host.ts';
import { tokenize, tokenText } from '#core/dns/presentation.ts';
import { RDATA_EXAMPLES, txtFromWire, txtToWire, validateRdata } from '#core/dns/rdata.ts';

/**
 * The fields of the record form per type. Structured types get one field per part of their data; every other
 * type has one `value` field holding the record data as people write it (TXT: the plain text, unquoted).
 */
export interface FieldSpec {
  key: string;
  label: string;
  example: string;
  /** Whole numbers 0..max, checked per field so the error lands where the mistake is. */
  max?: number;
  /** A choice from a short list, shown as a select. */
  options?: Array<{ value: string; label: string }>;
  multiline?: boolean;
}

const uint16 = 65535;
const uint8 = 255;

export const STRUCTURED_FIELDS: Partial<Record<RecordType, FieldSpec[]>> = {
  MX: [
    { key: 'priority', label: 'Priority', example: '10 (lower is tried first)', max: uint16 },
    { key: 'host', label: 'Mail server', example: 'mail.example.com.' },
  ],
  SRV: [
    { key: 'priority', label: 'Priority', example: '10', max: uint16 },
    { key: 'weight', label: 'Weight', example: '5', max: uint16 },
    { key: 'port', label: 'Port', example: '5060', max: uint16 },
    { key: 'target', label: 'Target', example: 'sip.example.com.' },
  ],
  CAA: [
    { key: 'flags', label: 'Flags', example: '0 (128 = critical)', max: uint8 },
    {
      key: 'tag',
      label: 'Tag',
      example: 'issue',
      options: [
        { value: 'issue', label: 'issue (may issue certificates)' },
        { value: 'issuewild', label: 'issuewild (may issue wildcard certificates)' },
        { value: 'iodef', label: 'iodef (where to report)' },
        { value: 'issuemail', label: 'issuemail (may issue e-mail certificates)' },
        { value: 'issuevmc', label: 'issuevmc (may issue logo certificates, BIMI)' },
        { value: 'contactemail', label: 'contactemail (e-mail for CAs to reach you)' },
        { value: 'contactphone', label: 'contactphone (phone for CAs to reach you)' },
      ],
    },
    { key: 'value', label: 'Value', example: 'letsencrypt.org' },
  ],
  TLSA: [
    { key: 'usage', label: 'Usage', example: '3 (the server’s own certificate)', max: 3 },
    { key: 'selector', label: 'Selector', example: '1 (public key)', max: 1 },
    { key: 'matchingType', label: 'Matching type', example: '1 (SHA-256)', max: 2 },
    { key: 'data', label: 'Certificate data (hex)', example: '0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6' },
  ],
  SSHFP: [
    { key: 'algorithm', label: 'Algorithm', example: '4 (Ed25519)', max: uint8 },
    { key: 'fpType', label: 'Fingerprint type', example: '2 (SHA-256)', max: uint8 },
    { key: 'fingerprint', label: 'Fingerprint (hex)', example: '123456789ABCDEF67890123456789ABCDEF67890123456789ABCDEF123456789' },
  ],
  DS: [
    { key: 'keyTag', label: 'Key tag', example: '12345', max: uint16 },
    { key: 'algorithm', label: 'Algorithm', example: '13 (ECDSA P-256)', max: uint8 },
    { key: 'digestType', label: 'Digest type', example: '2 (SHA-256)', max: uint8 },
    { key: 'digest', label: 'Digest (hex)', example: '3F1A5C9D2B7E4F608A1C3D5E7F9081A2B3C4D5E6F708192A3B4C5D6E7F809A1B' },
  ],
};

const VALUE_LABELS: Partial<Record<RecordType, string>> = {
  A: 'IPv4 address',
  AAAA: 'IPv6 address',
  CNAME: 'Target host name',
  ALIAS: 'Target host name',
  NS: 'Name server',
  PTR: 'Host name',
  TXT: 'Text',
  SPF: 'Text',
};

/** The fields a type's form shows, in order. */
export function fieldsFor(type: RecordType): FieldSpec[] {
  const structured = STRUCTURED_FIELDS[type];
  if (structured) return structured;
  const isText = type === 'TXT' || type === 'SPF';
  return [
    {
      key: 'value',
      label: VALUE_LABELS[type] ?? 'Value',
      example: isText ? txtFromWire(RDATA_EXAMPLES[type]) : RDATA_EXAMPLES[type],
      multiline: isText,
    },
  ];
}

export type RdataFields = Record<string, string>;

/** Fields -> record data as typed (not yet normalised; validateRdata gives the stored form). */
export function composeRdata(type: RecordType, fields: RdataFields): string {
  const get = (key: string) => (fields[key] ?? '').trim();
  switch (type) {
    case 'TXT':
    case 'SPF':
      // The text is sent whole and unquoted by the person; core splits it into 255-octet strings.
      return txtToWire(fields.value ?? '');
    case 'CAA':
      return `${get('flags')} ${get('tag')} ${JSON.stringify(get('value'))}`;
    default: {
      const structured = STRUCTURED_FIELDS[type];
      if (!structured) return get('value');
      return structured.map((f) => get(f.key)).join(' ');
    }
  }
}

/** Stored record data -> the form's fields. Falls back to one field per token when the data is odd. */
export function decomposeRdata(type: RecordType, rdata: string): RdataFields {
  if (type === 'TXT' || type === 'SPF') return { value: txtFromWire(rdata) };
  const structured = STRUCTURED_FIELDS[type];
  if (!structured) return { value: rdata };
  if (type === 'CAA') {
    const tokenized = tokenize(rdata);
    const tokens = tokenized.ok ? tokenized.tokens : [];
    return {
      flags: tokens[0]?.raw ?? '',
      tag: tokens[1]?.raw ?? 'issue',
      value: tokens.slice(2).map(tokenText).join(' '),
    };
  }
  const parts = rdata.trim().split(/\s+/);
  const out: RdataFields = {};
  structured.forEach((f, i) => {
    // The last field takes the rest: hex data may be written in several space-separated groups.
    out[f.key] = i === structured.length - 1 ? parts.slice(i).join('') : (parts[i] ?? '');
  });
  return out;
}

export function emptyFields(type: RecordType): RdataFields {
  const out: RdataFields = {};
  for (const f of fieldsFor(type)) out[f.key] = f.options ? f.options[0].value : '';
  if (type === 'CAA') out.flags = '0';
  return out;
}

export type FieldCheck = { ok: true; rdata: string } | { ok: false; errors: Record<string, string> };

const HOST_FIELDS: Record<string, { what: string; allowRoot: boolean }> = {
  'MX.host': { what: 'The mail server', allowRoot: true },
  'SRV.target': { what: 'The target', allowRoot: true },
};

/**
 * Checks the fields of one type and gives the stored record data, or an error per field. Per-field checks
 * run first so a bad port lands on Port; what only the whole can tell (core's validator) lands on the
 * type's main field.
 */
export function checkFields(type: RecordType, fields: RdataFields): FieldCheck {
  const specs = fieldsFor(type);
  const errors: Record<string, string> = {};
  for (const spec of specs) {
    const value = (fields[spec.key] ?? '').trim();
    if (spec.max !== undefined) {
      if (value === '') errors[spec.key] = `${spec.label} is required, e.g. ${spec.example}`;
      else if (!/^[0-9]+$/.test(value) || Number(value) > spec.max) {
        errors[spec.key] = `${spec.label} is a whole number from 0 to ${spec.max}, e.g. ${spec.example}`;
      }
      continue;
    }
    const host = HOST_FIELDS[`${type}.${spec.key}`];
    if (host) {
      const checked = normaliseHost(value, { what: host.what, example: spec.example, allowRoot: host.allowRoot });
      if (!checked.ok) errors[spec.key] = checked.message;
      continue;
    }
    const isText = type === 'TXT' || type === 'SPF';
    if (isText ? (fields.value ?? '') === '' : value === '') {
      errors[spec.key] = `${spec.label} is required, e.g. ${spec.example}`;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const result = validateRdata(type, composeRdata(type, fields));
  if (result.ok) return { ok: true, rdata: result.value };
  return { ok: false, errors: { [specs[specs.length - 1].key]: result.message } };
}
