import { z } from 'zod';
import { zoneName } from './common.ts';

export const dnssecQuery = z.object({ normalizedDomainName: zoneName });
export const toggleDnssecInput = z.object({ normalizedDomainName: zoneName, enabled: z.boolean() });
export type ToggleDnssecInput = z.infer<typeof toggleDnssecInput>;

const dsData = z.object({ keyTag: z.number().int(), algorithm: z.literal(13), digestType: z.literal(2), digest: z.string() });
/** A zone's DNSSEC state; `dnskey` and `dsRecords` in presentation form, as a registrar or parent zone asks for them. */
export const dnssecState = z.object({
  normalizedDomainName: z.string(),
  enabled: z.boolean(),
  algorithm: z.literal(13),
  keyTag: z.number().int().nullable(),
  dnskey: z.string().nullable(),
  ds: z.array(dsData),
  dsRecords: z.array(z.string()),
});
export type DnssecState = z.infer<typeof dnssecState>;
