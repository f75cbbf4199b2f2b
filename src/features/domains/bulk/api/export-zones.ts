import { listedRecordLike } from '#core/dns/listed.ts';
import { printZoneFile } from '#core/dns/zone-file.ts';
import type { Api } from '@/lib/api/use-api.ts';

/** Every zone as a BIND file (its own records; managed ones are the provider's), in one zip made in the browser (fflate, loaded only when someone exports). */
export async function exportZones(api: Api, domains: string[], onEach: (done: number) => void): Promise<Blob> {
  const { zipSync, strToU8 } = await import('fflate');
  const files: Record<string, Uint8Array> = {};
  let done = 0;
  for (const domain of domains) {
    const records = await api.call('getDnsRecords', { query: { zoneName: domain } });
    files[`${domain}.zone`] = strToU8(printZoneFile(domain, records.map(listedRecordLike)));
    onEach(++done);
  }
  return new Blob([zipSync(files) as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
}
