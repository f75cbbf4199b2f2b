import { isAsciiText } from '../wire/text.ts';
import type { RecordType } from '../wire/dns.ts';

/**
 * What the service stores is what was signed: a Unicode host name in record data would be converted to its A-label
 * by the core normalisers (fine in the dashboard, before signing), so the service refuses it instead. TXT, SPF and
 * CAA keep their quoted strings as written, so Unicode there is content and stays allowed.
 */
const KEPT_AS_WRITTEN: ReadonlySet<RecordType> = new Set(['TXT', 'SPF', 'CAA']);

const NON_ASCII_RDATA_MESSAGE = 'Is not ASCII: send host names as A-labels (xn--…)';

export function nonAsciiRdataProblem(type: RecordType, rdata: string): string | null {
  return KEPT_AS_WRITTEN.has(type) || isAsciiText(rdata) ? null : NON_ASCII_RDATA_MESSAGE;
}
