import type { RefusalRule, ValidationData } from '#core/wire/errors.ts';

/**
 * Why the service refuses something, said without HTTP: the domain code (auth, dns, orders, x402, …) throws these,
 * and server/http/errors.ts turns each kind into its status once (`invalid` 400, `not-found` 404, …).
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'payment-required'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-many-requests';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** What the refusal carries for the client (field errors, the domain's owner, …): the error body's `data`. */
    readonly data?: unknown,
    /** For `too-many-requests`: when asking again may succeed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const unauthorized = (message = 'Unauthorized') => new DomainError('unauthorized', message);
export const forbidden = (message = 'Forbidden', data?: unknown) => new DomainError('forbidden', message, data);
export const notFound = (message = 'Not Found') => new DomainError('not-found', message);
export const conflict = (message: string, data?: unknown) => new DomainError('conflict', message, data);

/** A refused input, with field errors; `path` is relative to the operation's plain payload, e.g. `records.2.rdata`. */
export function invalidInput(fieldErrors: Record<string, string[]>, options: { formErrors?: string[]; rule?: RefusalRule; message?: string } = {}): DomainError {
  const data: ValidationData = { formErrors: options.formErrors ?? [], fieldErrors, ...(options.rule ? { rule: options.rule } : {}) };
  const first = options.formErrors?.[0] ?? Object.entries(fieldErrors).map(([path, [msg]]) => `${path}: ${msg}`)[0];
  return new DomainError('invalid', options.message ?? first ?? 'Bad Request', data);
}
