import { useState } from 'react';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog } from '@/ui/index.ts';
import { parkingSigningLines, type ParkingImpact } from '../parking-impact.ts';

function RecordList({ records }: { records: Array<{ type: string; rdata: string }> }) {
  return (
    <ul className="rounded-lg bg-slate-50 p-2 font-mono text-xs dark:bg-slate-800">
      {records.map((r) => (
        <li key={`${r.type} ${r.rdata}`}>
          @ {r.type} {r.rdata}
        </li>
      ))}
    </ul>
  );
}

/** Confirms parking or unparking; when parking meets apex A/AAAA/CAA records, the person picks override or keep. */
export function ParkDialog({ domain, enable, impact, busy, onCancel, onConfirm }: {
  domain: string;
  enable: boolean;
  impact: ParkingImpact;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (override: boolean) => void;
}) {
  const [override, setOverride] = useState(false);
  const affected = enable ? impact.affected.length : 0;
  return (
    <Dialog
      open
      onClose={onCancel}
      title={enable ? `Park ${domain}?` : `Stop parking ${domain}?`}
      description={
        enable
          ? 'Parking serves a holding page for the domain through managed records at its apex.'
          : 'The managed parking records are removed. Your own records stay as they are.'
      }
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>Cancel</Button>
          <Button loading={busy} onClick={() => onConfirm(enable && override)}>{enable ? 'Park domain' : 'Stop parking'}</Button>
        </>
      }
    >
      {enable ? (
        <div className="space-y-3 text-sm">
          <p>Parking adds these records:</p>
          <RecordList records={impact.added} />
          {affected > 0 ? (
            <fieldset className="space-y-2">
              <legend className="font-medium">Your apex records that parking replaces or sits beside:</legend>
              <RecordList records={impact.affected} />
              <label className="flex items-start gap-2">
                <input type="radio" name="parking-override" checked={override} onChange={() => setOverride(true)} className="mt-1" />
                <span>Replace them: delete these records and serve the parking records instead</span>
              </label>
              <label className="flex items-start gap-2">
                <input type="radio" name="parking-override" checked={!override} onChange={() => setOverride(false)} className="mt-1" />
                <span>Keep them: serve them beside the parking records</span>
              </label>
            </fieldset>
          ) : null}
        </div>
      ) : null}
      <SigningNotice lines={parkingSigningLines(domain, enable, enable && override, affected)} />
    </Dialog>
  );
}
