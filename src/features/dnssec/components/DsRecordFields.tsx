import type { DnssecState } from '#core/wire/dnssec.ts';
import { Button, useToast } from '@/ui/index.ts';
import { ALGORITHM_NAMES, DIGEST_NAMES } from '../dnssec-words.ts';

function CopyButton({ what, text }: { what: string; text: string }) {
  const { toast } = useToast();
  const copy = () =>
    navigator.clipboard
      ?.writeText(text)
      .then(() => toast({ tone: 'success', title: `${what} copied` }))
      .catch(() => toast({ tone: 'error', title: `Could not copy the ${what.toLowerCase()}`, description: 'Select the text and copy it by hand.' }));
  return (
    <Button variant="ghost" size="sm" aria-label={`Copy ${what.toLowerCase()}`} onClick={() => void copy()}>
      Copy
    </Button>
  );
}

/** The DS record as a registrar's form asks for it: key tag, algorithm, digest type, digest; each and all copied. */
export function DsRecordFields({ state }: { state: DnssecState }) {
  const ds = state.ds[0];
  if (!ds) return null;
  const fields = [
    { label: 'Key tag', value: String(ds.keyTag), note: '' },
    { label: 'Algorithm', value: String(ds.algorithm), note: ALGORITHM_NAMES[ds.algorithm] ?? '' },
    { label: 'Digest type', value: String(ds.digestType), note: DIGEST_NAMES[ds.digestType] ?? '' },
    { label: 'Digest', value: ds.digest, note: '' },
  ];
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">{state.rollover ? 'DS record your registrar should hold now' : 'DS record for your registrar'}</h3>
      <dl className="grid gap-1 text-sm sm:grid-cols-[8rem_1fr_auto]">
        {fields.map((f) => (
          <div key={f.label} className="contents">
            <dt className="text-slate-600 dark:text-slate-400">{f.label}</dt>
            <dd className="break-all font-mono" data-field={f.label}>
              {f.value}
              {f.note ? <span className="ml-2 font-sans text-xs text-slate-500">({f.note})</span> : null}
            </dd>
            <dd>
              <CopyButton what={f.label} text={f.value} />
            </dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-slate-50 px-2 py-1 text-xs dark:bg-slate-800" aria-label="Whole DS record">{state.dsRecords[0]}</code>
        <CopyButton what="Whole DS record" text={state.dsRecords[0] ?? ''} />
      </div>
    </div>
  );
}
