import { errorBody, errorCodeFor, validationData } from '#core/wire/errors.ts';
import { ApiError } from '../api-error.ts';

export { ApiError, isApiError } from '../api-error.ts';

/** Retry-After is seconds or an HTTP date; anything else is ignored. */
function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Turns an error response into an ApiError. Accepts the contract's body and production's variants:
 * 422 INPUT_VALIDATION_FAILED (same data as a 400) and a 429 body of {"error": "Too Many Requests"}.
 */
export function errorFromResponse(status: number, body: unknown, retryAfter: string | null): ApiError {
  const retryAfterSeconds = parseRetryAfter(retryAfter);
  const parsed = errorBody.safeParse(body);
  if (parsed.success) {
    const validation = validationData.safeParse(parsed.data.data);
    return new ApiError({
      status,
      code: parsed.data.code,
      message: parsed.data.message,
      formErrors: validation.success ? validation.data.formErrors : [],
      fieldErrors: validation.success ? validation.data.fieldErrors : {},
      rule: validation.success ? validation.data.rule : undefined,
      retryAfterSeconds,
      data: parsed.data.data,
    });
  }
  const loose = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const message =
    (typeof loose.message === 'string' && loose.message) ||
    (typeof loose.error === 'string' && loose.error) ||
    (typeof body === 'string' && body.trim()) ||
    `The service answered ${status}`;
  return new ApiError({ status, code: defaultCode(status), message, retryAfterSeconds, data: body });
}

function defaultCode(status: number): string {
  return errorCodeFor(status) ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'ERROR');
}
