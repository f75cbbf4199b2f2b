import { useMemo, useState, type FormEvent } from 'react';
import type { ZoneScan } from '#core/operations/records.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { isApiError } from '@/lib/api/client.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { Button, Dialog, Notice, TextField } from '@/ui/index.ts';
import { useScanZone } from '../api/scan-zone.ts';
import { planImport } from '../model/zone-import.ts';
import type { RecordInput } from '../model/record-form.ts';

export interface ProviderImportDialogProps {
  zoneName: string;
  zone: DnsRecord[];
  /** A parked zone leaves records like parking's to parking; an unparked one takes them as the old zone's own. */
  parked: boolean;
  onImport: (records: RecordInput[]) => void;
  onClose: () => void;
}

/** How many found records the dialog lists (the change set shows them all). */
const LISTED = 200;

/**
 * "Import from your current provider": the service reads the zone from the provider it is leaving (a zone transfer
 * when that server allows one, else the names people use, asked one by one), and what it found goes to the change
 * set for review. Nothing is written until the person signs the change set.
 */
export function ProviderImportDialog({ zoneName, zone, parked, onImport, onClose }: ProviderImportDialogProps) {
  const [nameserver, setNameserver] = useState('');
  const scan = useScanZone(zoneName);
  const result = scan.data;
  const plan = useMemo(() => (result ? planImport(result.records, zone, undefined, { skipParkingRecords: parked }) : null), [result, zone, parked]);
  const fieldError = isApiError(scan.error) ? scan.error.fieldErrors.nameserver?.join(' ') : undefined;
  const otherError = scan.error && !fieldError ? explainError(scan.error, { domain: zoneName }) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    scan.mutate(nameserver);
  };

  return (
    <Dialog open onClose={onClose} title="Import from your current provider" description={`Bring the records of ${zoneName} over from the provider you are leaving`}>
      <form className="space-y-3" onSubmit={submit}>
        <p className="text-sm">
          Give the name server your current provider uses for {zoneName} (its NS record, such as <code>ns1.old-provider.net</code>). The service first asks it for
          the whole zone (a zone transfer); most providers refuse that, and then it asks for the names people use one by one. Without a name server, those
          names are asked as the world sees them now. Nothing is written: what is found goes to the change set for you to review and sign.
        </p>
        <TextField
          label="Current name server (optional)"
          name="nameserver"
          value={nameserver}
          onChange={(event) => setNameserver(event.target.value)}
          placeholder="ns1.old-provider.net"
          hint="A host name or an address, with :port if it is not 53."
          error={fieldError}
          autoComplete="off"
          spellCheck={false}
        />
        <Button type="submit" disabled={scan.isPending}>
          {scan.isPending ? 'Scanning…' : result ? 'Scan again' : 'Scan'}
        </Button>
      </form>
      {otherError ? (
        <Notice tone="danger" title="The scan could not run">
          {otherError.title}
          {otherError.description ? `: ${otherError.description}` : ''}
        </Notice>
      ) : null}
      {result && plan ? <ScanSummary result={result} creates={plan.creates} alreadyHere={plan.notes.length} onImport={() => onImport(plan.creates)} /> : null}
    </Dialog>
  );
}

function ScanSummary({ result, creates, alreadyHere, onImport }: { result: ZoneScan; creates: RecordInput[]; alreadyHere: number; onImport: () => void }) {
  const how = result.method === 'axfr' ? 'by a zone transfer (every record the server holds)' : 'by asking the names people use (a probe: names it cannot guess are not in it)';
  return (
    <section aria-label="What the scan found" className="mt-4 space-y-3 text-sm" aria-live="polite">
      <p role="status" className="font-medium">
        Found {result.records.length} {result.records.length === 1 ? 'record' : 'records'} {how}, with {result.queried} DNS {result.queried === 1 ? 'query' : 'queries'}.
        {alreadyHere > 0 ? ` ${alreadyHere} ${alreadyHere === 1 ? 'is' : 'are'} already here or managed for you, and left out.` : ''}
      </p>
      {result.notes.length > 0 ? (
        <div>
          <h3 className="font-medium">What could and could not be brought over</h3>
          <ul className="list-disc space-y-1 pl-5 text-xs">
            {result.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {creates.length > 0 ? (
        <div className="max-h-56 overflow-auto rounded-lg border border-slate-200 dark:border-slate-700">
          <table className="w-full text-left text-xs">
            <caption className="sr-only">Records to add</caption>
            <thead>
              <tr>
                <th className="px-2 py-1">Name</th>
                <th className="px-2 py-1">Type</th>
                <th className="px-2 py-1">Data</th>
                <th className="px-2 py-1">TTL</th>
              </tr>
            </thead>
            <tbody>
              {creates.slice(0, LISTED).map((r) => (
                <tr key={`${r.name} ${r.type} ${r.rdata}`} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="px-2 py-1 font-mono">{r.name}</td>
                  <td className="px-2 py-1">{r.type}</td>
                  <td className="break-all px-2 py-1 font-mono">{r.rdata}</td>
                  <td className="px-2 py-1">{r.ttl}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {creates.length > LISTED ? <p className="p-2 text-xs">…and {creates.length - LISTED} more, all in the change set.</p> : null}
        </div>
      ) : null}
      <Button onClick={onImport} disabled={creates.length === 0}>
        Add {creates.length} to change set
      </Button>
    </section>
  );
}
