import { useState } from 'react';
import type { DnssecRollover } from '#core/wire/dnssec.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog } from '@/ui/index.ts';
import { confirmDsLines, rolloverGuidance } from '../dnssec-words.ts';

const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

/**
 * An algorithm rollover under way, in words: the step, which DS to keep or add at the registrar and when the old one
 * may go; at the step that asks for it, the owner says (signed) that the registrar holds the new DS.
 */
export function RolloverSteps({ domain, rollover, busy, onConfirm }: { domain: string; rollover: DnssecRollover; busy: boolean; onConfirm: () => void }) {
  const [asking, setAsking] = useState(false);
  const words = rolloverGuidance(rollover, when);
  return (
    <div className="space-y-2 rounded-lg border border-amber-300 p-3 text-sm dark:border-amber-700" data-testid="dnssec-rollover">
      <h3 className="font-semibold">Algorithm rollover</h3>
      <p>{words.step}</p>
      <p>{words.keep}</p>
      {words.add ? (
        <>
          <p className="font-medium">{words.add}</p>
          <code className="block break-all rounded bg-slate-50 px-2 py-1 text-xs dark:bg-slate-800" aria-label="New DS record">{rollover.to.ds}</code>
        </>
      ) : null}
      <p>{words.remove}</p>
      {rollover.phase === 'new-ds' ? (
        <Button size="sm" disabled={busy} onClick={() => setAsking(true)}>
          The registrar holds the new DS
        </Button>
      ) : null}
      {asking ? (
        <Dialog
          open
          onClose={() => setAsking(false)}
          title={`Does the registrar of ${domain} hold the new DS?`}
          description={`Say so only once the DS of key ${rollover.to.keyTag} is published at the parent: a day later the old key is no longer published.`}
          footer={
            <>
              <Button variant="secondary" onClick={() => setAsking(false)}>Cancel</Button>
              <Button
                loading={busy}
                onClick={() => {
                  setAsking(false);
                  onConfirm();
                }}
              >
                Sign: the registrar holds it
              </Button>
            </>
          }
        >
          <SigningNotice lines={confirmDsLines(domain, rollover)} />
        </Dialog>
      ) : null}
    </div>
  );
}
