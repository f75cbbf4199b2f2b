import { z } from 'zod';
import { zoneName } from './common.ts';
import { recordType } from './dns.ts';

/** checkMailAuth's query (contract: "Mail authentication check"). */
export const mailCheckQuery = z.object({ zoneName });
export type MailCheckQuery = z.infer<typeof mailCheckQuery>;

/** A record that fixes a finding, as the dashboard puts it into the change set: name relative to the zone, rdata stored form. */
const mailFix = z.object({ name: z.string(), type: recordType, rdata: z.string() });
export type MailFix = z.infer<typeof mailFix>;

const mailFinding = z.object({
  /** What was checked and found (spf-missing, spf-too-many-lookups, dmarc-missing, dkim-ok, …). */
  id: z.string(),
  severity: z.enum(['error', 'warning', 'ok']),
  /** The record the finding is about, as text. */
  record: z.string().optional(),
  message: z.string(),
  fix: mailFix.optional(),
});
export type MailFinding = z.infer<typeof mailFinding>;

export const mailCheck = z.object({ findings: z.array(mailFinding) });

