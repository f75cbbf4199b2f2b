import { z } from 'zod';
import { grantInWords, splitList, type GrantRole } from '#core/access/scope.ts';
import { grantZoneAccessInput, type GrantZoneAccessInput } from '#core/wire/access.ts';

/** The "Add a person" form as typed: lists as text, the end as a date; checked by the service's own schema. */
export const grantFormSchema = z
  .object({
    grantee: z.string().trim(),
    role: z.enum(['viewer', 'editor', 'manager']),
    names: z.string(),
    types: z.string(),
    until: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Pick the day the grant ends'),
  })
  .superRefine((form, ctx) => {
    const parsed = grantZoneAccessInput.safeParse(toInput('example.com', form));
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'grantee');
      const path = field === 'expiresAt' ? 'until' : ['grantee', 'role', 'names', 'types'].includes(field) ? field : 'grantee';
      ctx.addIssue({ code: 'custom', path: [path], message: issue.message });
    }
  });
export type GrantForm = z.infer<typeof grantFormSchema>;

/** The end of the chosen day, UTC, in Unix seconds. */
const endOfDay = (day: string) => Math.floor(Date.parse(`${day}T23:59:59Z`) / 1000);

export function toInput(zoneName: string, form: GrantForm): GrantZoneAccessInput {
  return {
    zoneName,
    // Lowercase: any spelling of the address signs as the same 20 bytes, and a mistyped checksum cannot stop the signature.
    grantee: form.grantee.trim().toLowerCase() as GrantZoneAccessInput['grantee'],
    role: form.role,
    names: form.role === 'viewer' ? [] : splitList(form.names.toLowerCase()),
    types: form.role === 'viewer' ? [] : (splitList(form.types.toUpperCase()) as GrantZoneAccessInput['types']),
    expiresAt: endOfDay(form.until),
  };
}

/** What the grant allows, in the words the form shows before the wallet opens. */
export function formInWords(zoneName: string, form: GrantForm): string {
  const input = toInput(zoneName, form);
  return grantInWords({ ...input, role: input.role as GrantRole, expiresAt: new Date(input.expiresAt * 1000).toISOString() });
}
