import { toALabels } from '#core/names/idna.ts';
import type { RecordFormValues } from './record-form.ts';

/** The form fields that hold a host name, which a person may type in Unicode. */
const HOST_NAME_FIELDS: Record<string, string[]> = {
  CNAME: ['value'],
  ALIAS: ['value'],
  NS: ['value'],
  PTR: ['value'],
  MX: ['host'],
  SRV: ['target'],
};

export interface NameConversion {
  field: string;
  unicode: string;
  ascii: string;
}

export interface IdnaValues {
  /** The form's values with every Unicode name written as its A-labels: what is checked, signed and sent. */
  values: RecordFormValues;
  conversions: NameConversion[];
  /** Fields whose Unicode could not be converted, with the reason. */
  errors: Record<string, string>;
}

/** Converts the record name and the host-name fields of the form's type to A-labels (see core/names/idna.ts). */
export function toALabelValues(values: RecordFormValues): IdnaValues {
  const out = { ...values };
  const conversions: NameConversion[] = [];
  const errors: Record<string, string> = {};
  for (const field of ['name', ...(HOST_NAME_FIELDS[values.type] ?? [])]) {
    const typed = values[field];
    if (typeof typed !== 'string') continue;
    const result = toALabels(typed);
    if (!result.ok) errors[field] = result.reason;
    else if (result.converted) {
      out[field] = result.ascii;
      conversions.push({ field, unicode: result.unicode, ascii: result.ascii });
    }
  }
  return { values: out, conversions, errors };
}

export function conversionText(conversion: NameConversion): string {
  return `${conversion.unicode} → ${conversion.ascii}`;
}
