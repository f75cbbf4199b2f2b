import type { ZodError } from 'zod';
import { DEFAULT_MESSAGES, errorCodeFor, type ErrorBody } from '#core/wire/errors.ts';
import { DomainError, invalidInput, type DomainErrorKind } from '../domain-errors.ts';

/** Statuses named in the seed's error table answer `defined: true`. */
const SEED_DEFINED = new Set([400, 401, 402, 403, 404, 406, 408, 409, 412, 429, 500]);

/** Each domain refusal's HTTP status: the one place a DomainError's kind becomes a status. */
const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  'payment-required': 402,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-many-requests': 429,
};

/** A refusal of the HTTP layer itself (a malformed body, a rate limit), or a DomainError given its status and headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly data?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? DEFAULT_MESSAGES[status] ?? 'Error');
  }
}

/** A DomainError as the HTTP answer it is: its status, and Retry-After when it says when to ask again. */
export function httpErrorOf(error: DomainError): HttpError {
  const headers: Record<string, string> = error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
  return new HttpError(STATUS_OF[error.kind], error.message, error.data, headers);
}

export function errorBody(status: number, message?: string, data?: unknown): ErrorBody {
  return {
    defined: SEED_DEFINED.has(status),
    code: errorCodeFor(status) ?? 'ERROR',
    status,
    message: message ?? DEFAULT_MESSAGES[status] ?? 'Error',
    ...(data === undefined ? {} : { data }),
  };
}

export function fromZodError(error: ZodError): DomainError {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const issue of error.issues) {
    if (issue.path.length === 0) {
      formErrors.push(issue.message);
      continue;
    }
    const path = issue.path.map(String).join('.');
    (fieldErrors[path] ??= []).push(issue.message);
  }
  return invalidInput(fieldErrors, { formErrors });
}
