import { FORWARDING_DEFAULTS, type Forwarding, type ForwardStatusCode } from '#core/wire/forwarding.ts';

/** A domain's forwarding as its row keeps it (migration 050): read by forwarding and by parking, which turns it off. */
export interface ForwardingRow {
  forward_enabled: boolean;
  forward_target: string;
  forward_status: number;
  forward_keep_path: boolean;
}

export const FORWARDING_COLUMNS = 'forward_enabled, forward_target, forward_status, forward_keep_path';

export const toForwarding = (zoneName: string, row: ForwardingRow | undefined): Forwarding =>
  row
    ? { normalizedDomainName: zoneName, enabled: row.forward_enabled, targetUrl: row.forward_target, statusCode: row.forward_status as ForwardStatusCode, keepPath: row.forward_keep_path }
    : { normalizedDomainName: zoneName, ...FORWARDING_DEFAULTS };
