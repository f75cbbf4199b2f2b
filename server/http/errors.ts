import type { ZodError } from 'zod';
import { DEFAULT_MESSAGES, ERROR_CODES, type ErrorBody, type RefusalRule, type ValidationData } from '../../src/core/wire/errors.ts';

/** Statuses named in the seed's error table answer `defined: true`. */
const SEED_DEFINED = new Set([400, 401, 402, 403, 404, 406, 408, 409, 412, 429, 500]);

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

export function errorBody(status: number, message?: string, data?: unknown): ErrorBody {
  const code = (ERROR_CODES as Record<number, string>)[status] ?? 'ERROR';
  return {
    defined: SEED_DEFINED.has(status),
    code,
    status,
    message: message ?? DEFAULT_MESSAGES[status] ?? 'Error',
    ...(data === undefined ? {} : { data }),
  };
}

export const unauthorized = (message = 'Unauthorized') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden', data?: unknown) => new HttpError(403, message, data);
export const notFound = (message = 'Not Found') => new HttpError(404, message);

/** 400 with field errors; `path` is relative to the operation's plain payload, e.g. `records.2.rdata`. */
export function invalidInput(fieldErrors: Record<string, string[]>, options: { formErrors?: string[]; rule?: RefusalRule; message?: string } = {}): HttpError {
  const data: ValidationData = { formErrors: options.formErrors ?? [], fieldErrors, ...(options.rule ? { rule: options.rule } : {}) };
  const first = options.formErrors?.[0] ?? Object.entries(fieldErrors).map(([path, [msg]]) => `${path}: ${msg}`)[0];
  return new HttpError(400, options.message ?? first ?? 'Bad Request', data);
}

export function fromZodError(error: ZodError): HttpError {
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
