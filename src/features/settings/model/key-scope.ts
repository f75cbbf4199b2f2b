import { z } from 'zod';
import { scopeInWords, splitList } from '#core/access/scope.ts';
import { apiKeyScope, type ApiKeyScope } from '#core/wire/api-key-scope.ts';

/** The new-key form as typed: the scope's lists as text, its end as a day; checked by the service's own schema. */
export const keyFormSchema = z
  .object({
    label: z.string(),
    limited: z.boolean(),
    zones: z.string(),
    names: z.string(),
    types: z.string(),
    access: z.enum(['read', 'write']),
    until: z.string(),
    cidrs: z.string(),
  })
  .superRefine((form, ctx) => {
    if (form.label.trim() === '') ctx.addIssue({ code: 'custom', path: ['label'], message: 'Give the key a label' });
    if (!form.limited) return;
    const parsed = apiKeyScope.safeParse(scopeOf(form));
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]);
      ctx.addIssue({ code: 'custom', path: [field === 'expiresAt' ? 'until' : field], message: issue.message });
    }
  });
export type KeyForm = z.infer<typeof keyFormSchema>;

export function scopeOf(form: KeyForm): ApiKeyScope {
  return {
    zones: splitList(form.zones.toLowerCase()),
    names: splitList(form.names.toLowerCase()),
    types: splitList(form.types.toUpperCase()) as ApiKeyScope['types'],
    access: form.access,
    expiresAt: form.until ? new Date(`${form.until}T23:59:59Z`).toISOString() : null,
    cidrs: splitList(form.cidrs),
  };
}

/** A key's scope in the words the form and the list use; null: an old, unlimited key. */
export function keyScopeInWords(scope: ApiKeyScope | null): string {
  if (!scope) return 'Unlimited (an old key): acts as your wallet on every domain, for everything';
  const zones = scope.zones.length === 0 ? 'every domain you own' : scope.zones.join(', ');
  const until = scope.expiresAt ? `, until ${scope.expiresAt.slice(0, 10)}` : '';
  const from = scope.cidrs.length > 0 ? `, only from ${scope.cidrs.join(', ')}` : '';
  return `${scope.access === 'read' ? 'Reads' : 'Reads and writes'} ${scopeInWords(scope)} on ${zones}${until}${from}`;
}
