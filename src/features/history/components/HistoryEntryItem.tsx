import { useState } from 'react';
import type { HistoryEntry } from '#core/wire/history.ts';
import { Badge, Button } from '@/ui/index.ts';
import { changeLines, entryTitle, howSigned, settingLines, whoInWords } from '../model/describe-entry.ts';
import { VerifyEntry } from './VerifyEntry.tsx';

export interface EntryActions {
  onRevert: (entry: HistoryEntry) => void;
  onRestore: (entry: HistoryEntry) => void;
  onZoneFile: (entry: HistoryEntry) => void;
}

/** One change in the timeline: when, what, who and how; expands into the records' diff and the actions on it. */
export function HistoryEntryItem({ entry, actions, latest }: { entry: HistoryEntry; actions: EntryActions; latest: boolean }) {
  const [open, setOpen] = useState(false);
  const title = entryTitle(entry);
  const when = new Date(entry.at);
  return (
    <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-700" aria-label={`Serial ${entry.serial}: ${title}`}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <time dateTime={entry.at} className="text-sm text-slate-600 dark:text-slate-400" title={entry.at}>
          {when.toLocaleString()}
        </time>
        <span className="font-medium">{title}</span>
        <span className="text-sm">by <span className="font-mono">{whoInWords(entry)}</span></span>
        <Badge tone={entry.signed ? 'success' : 'neutral'}>{howSigned(entry)}</Badge>
        <span className="text-xs text-slate-500">serial {entry.serial}</span>
        <Button variant="ghost" size="sm" aria-expanded={open} onClick={() => setOpen((o) => !o)} className="ml-auto">
          {open ? 'Hide changes' : 'Show changes'}
        </Button>
      </div>
      {open ? (
        <div className="mt-3 space-y-3">
          {settingLines(entry).map((line) => (
            <p key={line} className="text-sm">
              {line}
            </p>
          ))}
          {entry.changes.length > 0 ? (
            <pre aria-label="Changed records" className="overflow-x-auto rounded bg-slate-50 p-2 font-mono text-xs dark:bg-slate-950">
              {entry.changes.flatMap(changeLines).map((line, i) => (
                <div key={i} className={line.sign === '-' ? 'text-red-800 dark:text-red-300' : 'text-emerald-800 dark:text-emerald-300'}>
                  {line.sign} {line.text}
                </div>
              ))}
            </pre>
          ) : null}
          <div className="flex flex-wrap items-start gap-2">
            {entry.signed ? <VerifyEntry entry={entry} /> : null}
            {entry.changes.length > 0 ? (
              <Button variant="secondary" size="sm" onClick={() => actions.onRevert(entry)}>
                Revert this change
              </Button>
            ) : null}
            {!latest ? (
              <Button variant="secondary" size="sm" onClick={() => actions.onRestore(entry)}>
                Restore the zone as it was at this point
              </Button>
            ) : null}
            <Button variant="ghost" size="sm" onClick={() => actions.onZoneFile(entry)}>
              Zone file at this point
            </Button>
          </div>
        </div>
      ) : null}
    </li>
  );
}
