import { useMemo, useState } from 'react';
import { parseZoneFileInSteps } from '#core/dns/zone-file.ts';
import { useSteps } from '@/lib/use-steps.ts';
import { MAX_BATCH, type DnsRecord } from '#core/wire/dns.ts';
import { Button, Dialog, Notice, ProgressBar, Tabs } from '@/ui/index.ts';
import { planImport, type ImportPlan } from '../model/zone-import.ts';
import type { RecordInput } from '../model/record-form.ts';

export interface ZoneFileDialogProps {
  open: boolean;
  zoneName: string;
  zone: DnsRecord[];
  /** The zone file, once written (undefined while it is being written). */
  exported: string | undefined;
  /** How far the writing is, while it runs. */
  exportProgress?: { written: number; total: number };
  initialTab: 'import' | 'export';
  onImport: (records: RecordInput[]) => void;
  onClose: () => void;
}

/** Export the zone as a BIND file (download or copy), or import one into the change set for review. */
export function ZoneFileDialog({ open, zoneName, zone, exported, exportProgress, initialTab, onImport, onClose }: ZoneFileDialogProps) {
  const [tab, setTab] = useState<string>(initialTab);
  const [text, setText] = useState('');
  // A chosen file is read from here, not shown in the text box: a 100,000-line text box is laid out again on every
  // step of the progress bar, which made reading such a file several times slower.
  const [file, setFile] = useState<{ name: string; size: number; text: string } | null>(null);
  // The text being read for review: read a few thousand entries at a time, with progress (100,000 records take seconds).
  const [reviewing, setReviewing] = useState<string | null>(null);
  const reading = useSteps(() => (reviewing !== null ? parseZoneFileInSteps(reviewing, { origin: zoneName }) : null), [reviewing, zoneName]);
  const plan: ImportPlan | null = useMemo(() => (reading.result ? planImport(reading.result.records, zone, reading.result) : null), [reading.result, zone]);
  const [copied, setCopied] = useState(false);
  const download = useMemo(
    () => (open && exported !== undefined && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(new Blob([exported], { type: 'text/plain' })) : undefined),
    [exported, open],
  );

  const readFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    setFile({ name: chosen.name, size: chosen.size, text: await chosen.text() });
    setText('');
    setReviewing(null);
  };
  const review = () => setReviewing(file ? file.text : text);

  return (
    <Dialog open={open} onClose={onClose} title="Zone file" description={`A BIND zone file of ${zoneName}`}>
      <Tabs
        label="Zone file"
        selected={tab}
        onSelect={setTab}
        items={[
          {
            id: 'export',
            label: 'Export',
            content: (
        <div className="space-y-2">
          <label htmlFor="zone-export" className="block text-sm font-medium">
            Exported zone file
          </label>
          {exported === undefined ? (
            <ProgressBar
              label="Writing the zone file"
              value={exportProgress?.written ?? 0}
              max={exportProgress?.total ?? zone.length}
              valueText={`${(exportProgress?.written ?? 0).toLocaleString('en-US')} of ${(exportProgress?.total ?? zone.length).toLocaleString('en-US')} records`}
            />
          ) : null}
          <textarea id="zone-export" readOnly value={exported ?? ''} rows={10} className="block w-full rounded-lg border border-slate-300 bg-slate-50 p-2 font-mono text-xs dark:border-slate-600 dark:bg-slate-950" />
          <div className="flex flex-wrap gap-2">
            <a className="inline-flex h-10 items-center rounded-lg border border-slate-300 px-4 text-sm font-medium dark:border-slate-600" href={download} download={`${zoneName}.zone`}>
              Download {zoneName}.zone
            </a>
            <Button
              variant="secondary"
              onClick={async () => {
                if (exported !== undefined) await navigator.clipboard?.writeText(exported);
                setCopied(true);
              }}
            >
              {copied ? 'Copied' : 'Copy to clipboard'}
            </Button>
          </div>
        </div>
            ),
          },
          {
            id: 'import',
            label: 'Import',
            content: (
        <div className="space-y-3">
          <label htmlFor="zone-import" className="block text-sm font-medium">
            Paste a zone file
          </label>
          <textarea
            id="zone-import"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setFile(null);
              setReviewing(null);
            }}
            rows={8}
            spellCheck={false}
            placeholder={`$ORIGIN ${zoneName}.\n$TTL 1h\nwww  IN  A  192.0.2.10`}
            aria-describedby="zone-import-help"
            className="block w-full rounded-lg border border-slate-300 p-2 font-mono text-xs dark:border-slate-600 dark:bg-slate-950"
          />
          <p id="zone-import-help" className="text-xs text-slate-600 dark:text-slate-400">
            Read as BIND reads it: $ORIGIN, $TTL (or the SOA minimum), relative and absolute names, wildcards, TTL units (1h, 1d), comments, multi-string TXT and RFC 3597 \# data. Nothing is signed yet: the records go to the change set for review.
          </p>
          <label className="block text-sm">
            <span className="font-medium">Or choose a file</span>
            <input type="file" accept=".zone,.txt,.db,text/plain" className="mt-1 block text-sm" onChange={(event) => void readFile(event.target.files?.[0])} />
          </label>
          {file ? (
            <p className="text-sm">
              Chosen: <strong>{file.name}</strong> ({sizeInWords(file.size)}), read from the file and not shown above. Paste into the box to read other text instead.
            </p>
          ) : null}
          <Button variant="secondary" onClick={review} disabled={(file === null && text.trim() === '') || (reviewing !== null && !reading.result)}>
            Read zone file
          </Button>
          {reading.progress && !reading.result ? (
            <ProgressBar
              label="Reading the zone file"
              value={reading.progress.read}
              max={reading.progress.total}
              valueText={`${reading.progress.read.toLocaleString('en-US')} of ${reading.progress.total.toLocaleString('en-US')} lines`}
            />
          ) : null}
          {plan ? <ImportSummary plan={plan} onImport={() => onImport(plan.creates)} /> : null}
        </div>
            ),
          },
        ]}
      />
    </Dialog>
  );
}

function ImportSummary({ plan, onImport }: { plan: ImportPlan; onImport: () => void }) {
  return (
    <div className="space-y-2 text-sm" aria-live="polite">
      <p className="font-medium">
        {plan.creates.length} new {plan.creates.length === 1 ? 'record' : 'records'} to add
        {plan.notes.length > 0 ? `, ${plan.notes.length} left out` : ''}
        {plan.errors.length > 0 ? `, ${plan.errors.length} ${plan.errors.length === 1 ? 'line' : 'lines'} not understood` : ''}.
      </p>
      {plan.errors.length > 0 ? (
        <Notice tone="warning" title="Lines that could not be read">
          <ul>
            {plan.errors.slice(0, LISTED).map((e) => (
              <li key={`${e.line}-${e.text}`}>
                Line {e.line}: {e.message} <code className="text-xs">{e.text}</code>
              </li>
            ))}
          </ul>
          <More count={plan.errors.length} />
        </Notice>
      ) : null}
      {plan.warnings.length > 0 ? (
        <Notice tone="warning" title="Imported, but check these">
          <ul>
            {plan.warnings.slice(0, LISTED).map((w) => (
              <li key={`${w.line}-${w.message}`}>
                Line {w.line}: {w.message} <code className="text-xs">{w.text}</code>
              </li>
            ))}
          </ul>
          <More count={plan.warnings.length} />
        </Notice>
      ) : null}
      {plan.notes.length > 0 ? (
        <details>
          <summary>What is left out and why</summary>
          <ul className="text-xs">
            {plan.notes.slice(0, LISTED).map((n, i) => (
              <li key={`${i}-${n.text}`}>
                {n.line ? `Line ${n.line}: ` : ''}
                <code>{n.text}</code> — {n.reason}
              </li>
            ))}
          </ul>
          <More count={plan.notes.length} />
        </details>
      ) : null}
      {plan.creates.length > MAX_BATCH ? <p>{batchesInWords(plan.creates.length)}</p> : null}
      <Button onClick={onImport} disabled={plan.creates.length === 0}>
        Add {plan.creates.length} to change set
      </Button>
    </div>
  );
}

/** How many lines of each list the summary shows: a file of 100,000 bad lines would otherwise be 100,000 items. */
const LISTED = 100;

function More({ count }: { count: number }) {
  return count > LISTED ? <p className="text-xs">…and {(count - LISTED).toLocaleString('en-US')} more, not listed.</p> : null;
}

function sizeInWords(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

/** How a large import is sent, said before anything is signed. */
function batchesInWords(count: number): string {
  const batches = Math.ceil(count / MAX_BATCH);
  return `They go in ${batches.toLocaleString('en-US')} batches of at most ${MAX_BATCH.toLocaleString('en-US')} records, one signature each, with a progress bar. Each batch is all or nothing: a batch the service refuses adds none of its records and stops the import there; the batches before it stay in the zone.`;
}
