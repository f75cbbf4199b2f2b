import { z } from 'zod';

/**
 * The one status-to-code table: the service's error bodies take their `code` from it, and the dashboard reads a
 * status it gets without one (a proxy's page, production's variants) with it.
 */
const ERROR_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  406: 'NOT_ACCEPTABLE',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  500: 'INTERNAL_SERVER_ERROR',
};

/** Production answers a refused input with 422 and this code (the same data as a 400); this service never does. */
const PRODUCTION_CODES: Record<number, string> = { 422: 'INPUT_VALIDATION_FAILED' };

/** The error code of a status, when the contract (or production) names one. */
export function errorCodeFor(status: number): string | undefined {
  return ERROR_CODES[status] ?? PRODUCTION_CODES[status];
}

export const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

/** Names of the zone rules a 400 can carry in `data.rule`. */
const ZONE_RULES = [
  'DNS_DUPLICATE',
  'DNS_CNAME_CONFLICT',
  'DNS_CNAME_AT_APEX',
  'DNS_APEX_NS_SOA',
  'DNS_NS_EXCLUSIVE',
  'DNS_BELOW_DELEGATION',
  'DNS_NAME_TOO_LONG',
  'DNS_PARKING_CONFLICT',
  'DNS_MANAGED_RECORD',
  'DNS_ALIAS_CONFLICT',
  'DNS_ALIAS_LOOP',
  'DNS_SPF_SYNTAX',
] as const;
export type ZoneRule = (typeof ZONE_RULES)[number];
/**
 * A 400's `data.rule`: a zone rule broken, or a signed payload carrying a field its primary type does not sign, or
 * lacking one it does, or a scan asked of a loopback, private or link-local name server (SCAN_PRIVATE_ADDRESS).
 */
export type RefusalRule = ZoneRule | 'UNSIGNED_FIELD' | 'MISSING_SIGNED_FIELD' | 'SCAN_PRIVATE_ADDRESS';

export const validationData = z.object({
  formErrors: z.array(z.string()),
  fieldErrors: z.record(z.string(), z.array(z.string())),
  rule: z.string().optional(),
});
export type ValidationData = z.infer<typeof validationData>;

export const errorBody = z.object({
  defined: z.boolean(),
  code: z.string(),
  status: z.number(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
