import { useMemo } from 'react';
import { ttlInWords } from '#core/dns/ttl.ts';
import { fullName } from '#core/dns/names.ts';
import { Badge, Button, Card } from '@/ui/index.ts';
import type { DiffEntry } from '../model/change-set.ts';
import { contentInWords } from '../model/describe.ts';
import type { Problem } from '../model/zone-check.ts';

export interface ChangeSetPanelProps {
  zoneName: string;
  diff: DiffEntry[];
  problems: Map<string, Problem>;
  onReview: () => void;
  onEdit: (entry: DiffEntry) => void;
  onRemove: (key: string) => void;
  onDiscard: () => void;
}

const KIND: Record<DiffEntry['kind'], { sign: string; label: string; tone: 'success' | 'warning' | 'danger' }> = {
  add: { sign: '+', label: 'Add', tone: 'success' },
  change: { sign: '~', label: 'Change', tone: 'warning' },
  remove: { sign: '−', label: 'Delete', tone: 'danger' },
};

function line(zoneName: string, r: { name: string; type: string; rdata: string; ttl: number }): string {
  return `${fullName(r.name, zoneName)}  ${r.type}  ${contentInWords(r.type, r.rdata)}  (${ttlInWords(r.ttl)})`;
}

/**
 * Items listed one by one: an imported zone file can put 100,000 in the change set, and a list that long would take
 * seconds to render and could not be read anyway. Items with a problem or an error are listed first, so none is hidden.
 */
const LISTED = 200;

/** The draft as a diff against the zone, with what is wrong with each item before anything is signed. */
export function ChangeSetPanel({ zoneName, diff, problems, onReview, onEdit, onRemove, onDiscard }: ChangeSetPanelProps) {
  const blocked = [...problems.keys()].length;
  const listed = useMemo(() => {
    if (diff.length <= LISTED) return diff;
    const flagged = diff.filter((entry) => problems.has(entry.key) || entry.error);
    const rest = diff.filter((entry) => !problems.has(entry.key) && !entry.error);
    return [...flagged, ...rest].slice(0, Math.max(LISTED, flagged.length));
  }, [diff, problems]);
  return (
    <Card aria-labelledby="change-set-title" role="region" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h3 id="change-set-title" className="font-semibold">
            Change set: {diff.length} pending {diff.length === 1 ? 'change' : 'changes'}
          </h3>
          <p className="text-sm text-slate-600 dark:text-slate-400">Kept in this browser until you apply or discard it. Applying signs once per kind of change.</p>
        </div>
        <div className="flex gap-2">
          <Button variant="ghost" onClick={onDiscard}>
            Discard change set
          </Button>
          <Button onClick={onReview} disabled={blocked > 0} title={blocked > 0 ? 'Fix the problems marked below first' : undefined}>
            Review and apply
          </Button>
        </div>
      </div>
      <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800" aria-label="Pending changes">
        {listed.map((entry) => {
          const kind = KIND[entry.kind];
          const problem = problems.get(entry.key);
          const subject = entry.kind === 'add' ? entry.after : (entry.before ?? (entry.kind === 'change' ? entry.after : undefined));
          const label = subject ? `${kind.label} ${subject.type} record ${subject.name}` : `${kind.label} record`;
          return (
            <li key={entry.key} className="flex flex-wrap items-start justify-between gap-2 py-2" aria-label={label}>
              <div className="min-w-0 space-y-0.5 font-mono">
                <Badge tone={kind.tone} className="mr-2 font-sans">
                  {kind.label}
                </Badge>
                {entry.kind === 'change' && entry.before ? (
                  <>
                    <span className="text-red-800 line-through dark:text-red-300">{line(zoneName, entry.before)}</span>
                    <span aria-hidden="true"> → </span>
                    <span className="sr-only"> becomes </span>
                    <span>{line(zoneName, entry.after)}</span>
                  </>
                ) : entry.kind === 'remove' ? (
                  <span className="line-through">{entry.before ? line(zoneName, entry.before) : entry.id}</span>
                ) : (
                  <span>{line(zoneName, entry.after)}</span>
                )}
                {entry.note ? <p className="font-sans text-xs text-slate-600 dark:text-slate-400">{entry.note}</p> : null}
                {problem ? <p className="font-sans text-xs font-medium text-red-700 dark:text-red-400">{problem.message}</p> : null}
                {entry.error ? (
                  <p className="font-sans text-xs font-medium text-red-700 dark:text-red-400" role="alert">
                    Not applied: {entry.error}
                  </p>
                ) : null}
              </div>
              <div className="flex gap-1">
                {entry.kind !== 'remove' ? (
                  <Button variant="ghost" size="sm" aria-label={`Edit pending: ${label}`} onClick={() => onEdit(entry)}>
                    Edit
                  </Button>
                ) : null}
                <Button variant="ghost" size="sm" aria-label={`Undo: ${label}`} onClick={() => onRemove(entry.key)}>
                  Undo
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      {listed.length < diff.length ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          And {(diff.length - listed.length).toLocaleString('en-US')} more, none with a problem: all are applied together with these.
        </p>
      ) : null}
    </Card>
  );
}
