import type { OperationRequest } from '#core/operations/index.ts';
import type { TypesForMethod } from '#core/wire/eip712.ts';
import { chooseSigning } from '#core/eip712/signing-choice.ts';
import { fieldNames } from '@/lib/signing/signing-choice.ts';
import { z } from 'zod';
import { validateRecordName } from '#core/dns/names.ts';
import { parkingRecords, startsParked } from '#core/dns/parking.ts';
import { validateRdata } from '#core/dns/rdata.ts';
import { parseTtl } from '#core/dns/ttl.ts';
import type { RecordLike } from '#core/dns/types.ts';
import { checkZoneChange } from '#core/dns/zone-rules.ts';
import { RECORD_TYPES, type RecordType, type ZoneRecordInput } from '#core/wire/dns.ts';
import type { Availability } from '#core/wire/search.ts';
import { address } from '#core/wire/common.ts';

export interface YearsRange {
  min: number;
  max: number;
}

/** The contract's default when the service names no range (the local service always names one). */
const DEFAULT_YEARS: YearsRange = { min: 1, max: 10 };

export function yearsRange(availability: Pick<Availability, 'durationValidationInYears'> | undefined): YearsRange {
  return availability?.durationValidationInYears ?? DEFAULT_YEARS;
}

/** Years from the URL, clamped into the allowed range; anything unreadable becomes the minimum. */
export function initialYears(raw: string | null, range: YearsRange): number {
  const n = Number(raw);
  if (!raw || !Number.isInteger(n)) return range.min;
  return Math.min(range.max, Math.max(range.min, n));
}

/** Price per year (dollars, possibly fractional) to cents, once, so totals never drift by a float. */
export function pricePerYearCents(availability: Pick<Availability, 'pricingDetails'> | undefined): number | undefined {
  const amount = availability?.pricingDetails?.registrationPrice.price.amount;
  return amount === undefined ? undefined : Math.round(amount * 100);
}

export function totalCents(perYearCents: number, years: number): number {
  return perYearCents * years;
}

/** How much more credit the order needs; 0 when the balance covers it. */
export function missingCents(total: number, balance: number): number {
  return Math.max(0, total - balance);
}

export interface RecordRow {
  type: RecordType;
  name: string;
  rdata: string;
  ttl: string;
}

export interface CheckoutValues {
  years: number;
  records: RecordRow[];
  nftWallet: { custom: boolean; walletAddress: string; chainId: string };
}

export const BLANK_RECORD: RecordRow = { type: 'A', name: '@', rdata: '', ttl: '3600' };

/** The zone a new domain starts with: parked, unless its registration brings an apex A or AAAA. */
function initialZone(zoneName: string, records: RecordLike[]): { parked: boolean; existing: RecordLike[] } {
  const parked = startsParked(records);
  return { parked, existing: parked ? parkingRecords(zoneName) : [] };
}

/**
 * The checkout form's rules: whole years within the name's range, every record valid for its type with
 * core's DNS rules (the ones the service applies), the records together valid as a zone, and a receiving
 * wallet that is an address on a chain. Messages land on the field that has to change.
 */
export function checkoutSchema(ctx: { domain: string; range: YearsRange }) {
  const { domain, range } = ctx;
  return z
    .object({
      years: z
        .number({ error: 'Enter a number of years' })
        .int('Years must be a whole number')
        .min(range.min, `At least ${range.min} year${range.min === 1 ? '' : 's'} for this name`)
        .max(range.max, `At most ${range.max} years for this name`),
      records: z.array(
        z.object({ type: z.enum(RECORD_TYPES), name: z.string(), rdata: z.string(), ttl: z.string() }),
      ),
      nftWallet: z.object({ custom: z.boolean(), walletAddress: z.string(), chainId: z.string() }),
    })
    .superRefine((values, issue) => {
      const normalised: RecordLike[] = [];
      values.records.forEach((row, index) => {
        const name = validateRecordName(row.name, domain);
        if (!name.ok) issue.addIssue({ code: 'custom', path: ['records', index, 'name'], message: name.message });
        const rdata = row.rdata.trim() === '' ? { ok: false as const, message: 'Record data is required' } : validateRdata(row.type, row.rdata);
        if (!rdata.ok) issue.addIssue({ code: 'custom', path: ['records', index, 'rdata'], message: rdata.message });
        const ttl = parseTtl(row.ttl);
        if (!ttl.ok) issue.addIssue({ code: 'custom', path: ['records', index, 'ttl'], message: ttl.message });
        if (name.ok && rdata.ok && ttl.ok) normalised.push({ name: name.value, type: row.type, rdata: rdata.value, ttl: ttl.value });
      });
      if (normalised.length === values.records.length && normalised.length > 0) {
        const zone = initialZone(domain, normalised);
        const violations = checkZoneChange({
          zoneName: domain,
          existing: zone.existing,
          change: { creates: normalised, updates: [], deletes: [] },
          parked: zone.parked,
        });
        for (const v of violations) {
          issue.addIssue({ code: 'custom', path: ['records', v.target.index, v.field ?? 'rdata'], message: v.message });
        }
      }
      if (values.nftWallet.custom) {
        if (!address.safeParse(values.nftWallet.walletAddress.trim()).success) {
          issue.addIssue({ code: 'custom', path: ['nftWallet', 'walletAddress'], message: 'Enter a wallet address: 0x followed by 40 hex characters' });
        }
        const chainId = Number(values.nftWallet.chainId);
        if (!Number.isInteger(chainId) || chainId <= 0) {
          issue.addIssue({ code: 'custom', path: ['nftWallet', 'chainId'], message: 'Choose the chain that receives the domain' });
        }
      }
    });
}

export type RegistrationRequest =
  | { operationId: 'registerDomain'; payload: OperationRequest<'registerDomain'> }
  | { operationId: 'registerWithRecords'; payload: OperationRequest<'registerWithRecords'> };

/** The request Pay signs: registerWithRecords when records were added, registerDomain otherwise. */
export function registrationRequest(domain: string, values: CheckoutValues): RegistrationRequest {
  const payload: OperationRequest<'registerDomain'> = { normalizedDomainName: domain, durationInYears: values.years };
  if (values.nftWallet.custom) {
    payload.nftReceivingWallet = { walletAddress: values.nftWallet.walletAddress.trim(), chainId: Number(values.nftWallet.chainId) };
  }
  if (values.records.length === 0) return { operationId: 'registerDomain', payload };
  const records: ZoneRecordInput[] = values.records.map((row) => {
    const name = validateRecordName(row.name, domain);
    const rdata = validateRdata(row.type, row.rdata);
    const ttl = parseTtl(row.ttl);
    return {
      name: name.ok ? name.value : row.name,
      type: row.type,
      rdata: rdata.ok ? rdata.value : row.rdata,
      ttl: ttl.ok ? ttl.value : 3600,
    };
  });
  return { operationId: 'registerWithRecords', payload: { ...payload, records } };
}

/** Where a service error belongs in the form: a field path, or the balance/name notices. */
export type ErrorPlacement = { field: string; message: string } | { place: 'balance' | 'domain' | 'form'; message: string };

export function placeServiceError(error: {
  status: number;
  message: string;
  fieldErrors: Record<string, string[]>;
  formErrors: string[];
}): ErrorPlacement[] {
  if (error.status === 402) return [{ place: 'balance', message: error.message || 'Your balance does not cover this order' }];
  if (error.status === 409) return [{ place: 'domain', message: error.message || 'This name is not available any more' }];
  const placed: ErrorPlacement[] = [];
  for (const [path, messages] of Object.entries(error.fieldErrors)) {
    const message = messages.join(' ');
    if (path === 'durationInYears') placed.push({ field: 'years', message });
    else if (/^records\.\d+\.(name|type|rdata|ttl)$/.test(path)) placed.push({ field: path, message });
    else if (path.startsWith('nftReceivingWallet.')) placed.push({ field: path.replace('nftReceivingWallet.', 'nftWallet.'), message });
    else if (path === 'normalizedDomainName') placed.push({ place: 'domain', message });
    else placed.push({ place: 'form', message: `${path}: ${message}` });
  }
  for (const message of error.formErrors) placed.push({ place: 'form', message });
  if (placed.length === 0) placed.push({ place: 'form', message: error.message });
  return placed;
}

/**
 * What the service's signing types mean for this registration, said before the wallet opens: `cannot` when no
 * accepted type signs all it sends (production's nested wallet struct signs chainId alone, not the address), so
 * Pay stays off rather than sign less than is sent; `lines` for the signing notice otherwise. Without the types
 * (an API key signs nothing) it says nothing.
 */
export function registrationSigningNotes(
  request: RegistrationRequest,
  typesOf: Partial<Record<RegistrationRequest['operationId'], TypesForMethod>>,
): { lines: string[]; cannot: string | null } {
  const types = typesOf[request.operationId];
  if (!types) return { lines: [], cannot: null };
  const choice = chooseSigning(types, request.payload);
  if (choice.how === 'session') return { lines: ['This service publishes no signing type for this registration: it is sent with your sign-in instead of a signature.'], cannot: null };
  if (choice.how === 'signature') return { lines: [], cannot: null };
  const fields = fieldNames(choice.unsigned);
  const wallet = fields.some((f) => f.startsWith('nftReceivingWallet'));
  return {
    lines: [],
    cannot: `This service's signing types cannot sign ${fields.join(', ')}${wallet ? ' (where the NFT goes)' : ''}, so nothing will be signed or sent. ${wallet ? 'Let the NFT go to the wallet you sign with, or set' : 'Set'} an API key in Settings.`,
  };
}
