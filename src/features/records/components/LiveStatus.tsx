import { useState } from 'react';
import { ttlInWords } from '#core/dns/ttl.ts';
import { config } from '@/lib/config.ts';
import { Button } from '@/ui/index.ts';
import { checkAliasLive, checkLive, type AliasLiveCheck, type LiveCheck } from '../api/dns-lookup.ts';
import type { Row } from '../model/table.ts';
import type { RecordType } from '#core/wire/dns.ts';

/**
 * "Is it live?": what DNS answers for one record now, through the configured DoH resolver, for how long caches keep
 * it, and whether the answer is signed (DNSSEC, its RRSIG checked against the zone's DNSKEY here).
 */
export function LiveStatus({ row, type, dohUrl = config.dohUrl }: { row: Row; type: RecordType; dohUrl?: string }) {
  const [state, setState] = useState<{ checking: boolean; result?: LiveCheck | AliasLiveCheck; error?: string }>({ checking: false });
  const check = async () => {
    setState({ checking: true });
    try {
      const zone = row.record.zoneName;
      const result = type === 'ALIAS' ? await checkAliasLive(dohUrl, { zone, fqdn: row.fqdn }) : await checkLive(dohUrl, { zone, fqdn: row.fqdn, type, rdata: row.record.rdata });
      setState({ checking: false, result });
    } catch (error) {
      setState({ checking: false, error: (error as Error).message });
    }
  };
  const { result } = state;
  let text: string | null = null;
  if (state.error) text = `Could not ask DNS: ${state.error}`;
  else if (result && 'addresses' in result) {
    // An ALIAS: what its name resolves to now, its target's addresses as the service last followed them.
    text = result.live
      ? `Live: ${row.fqdn} resolves to ${result.addresses.join(', ')} now, the addresses of ${row.record.rdata} (TTL ${ttlInWords(result.ttlLeft ?? row.ttl)})`
      : `Not live yet: DNS answers no address for ${row.fqdn}; the service looks up ${row.record.rdata} within seconds of a change`;
  } else if (result?.live) text = `Live: DNS answers it (TTL ${ttlInWords(result.ttlLeft ?? row.ttl)}; caches see a change within that)`;
  else if (result) {
    const other = result.answers.filter((a) => a.type === row.type).map((a) => a.rdata);
    text = other.length > 0 ? `Not live yet: DNS answers ${other.join(', ')} for ${result.ttlLeft === null ? 'now' : `up to ${ttlInWords(result.ttlLeft)} more`}` : `Not live yet: DNS answers ${result.status} with no ${row.type} record`;
  }
  const signedText = result ? (result.signed.signed ? `signed by the zone's key (tag ${result.signed.keyTag}), checked in this browser` : `not signed: ${result.signed.reason}`) : null;
  return (
    <span className="inline-flex items-center gap-1">
      <Button variant="ghost" size="sm" aria-label={`Is the ${row.type} record ${row.name} live?`} onClick={() => void check()} disabled={state.checking}>
        {state.checking ? 'Asking DNS…' : 'Live?'}
      </Button>
      {text ? (
        <span role="status" className={result?.live ? 'text-xs text-emerald-700 dark:text-emerald-400' : 'text-xs text-amber-700 dark:text-amber-400'} title={signedText ? `${text}; ${signedText}` : text}>
          {result?.live ? (result && 'addresses' in result ? `Live → ${result.addresses.join(', ')}` : 'Live') : 'Not live'}
          <span className="sr-only">: {text}</span>
          {result && signedText ? (
            <span className={result.signed.signed ? 'ml-1' : 'ml-1 text-slate-500'} data-signed={result.signed.signed}>
              · {result.signed.signed ? 'signed' : 'not signed'}
              <span className="sr-only">: {signedText}</span>
            </span>
          ) : null}
        </span>
      ) : null}
    </span>
  );
}
