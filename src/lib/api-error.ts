// Apart from api/errors.ts (which parses error bodies with zod) so that the first page can know the type without zod;
// outside lib/api so that lib/session can throw and read it while the API client reads the session's token.
/** The one error type of the dashboard's API client: forms read fieldErrors, toasts read the rest. */
export class ApiError extends Error {
  status: number;
  code: string;
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
  rule?: string;
  retryAfterSeconds?: number;
  data?: unknown;
  /** Which credential the failed request carried; decides whether a 401 ends the session. */
  credential?: 'api-key' | 'siwe' | 'signature' | 'none';

  constructor(init: {
    status: number;
    code: string;
    message: string;
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
    rule?: string;
    retryAfterSeconds?: number;
    data?: unknown;
    credential?: ApiError['credential'];
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.formErrors = init.formErrors ?? [];
    this.fieldErrors = init.fieldErrors ?? {};
    this.rule = init.rule;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.data = init.data;
    this.credential = init.credential;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
