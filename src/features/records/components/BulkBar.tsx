import { useState } from 'react';
import { parseTtl, ttlInWords, TTL_PRESETS } from '#core/dns/ttl.ts';
import { Button, Select, TextField } from '@/ui/index.ts';

export interface BulkBarProps {
  /** Records selected. */
  count: number;
  /** Records shown that can be selected (stored, not managed). */
  shown: number;
  /** Why the selection was just emptied on purpose (a change made to it), said with "No record selected". */
  clearedBecause?: string | null;
  onSelectShown: () => void;
  onClear: () => void;
  onTtl: (ttl: number) => void;
  onAddTag: (tag: string) => string | null;
  onRemoveTag: (tag: string) => void;
  onDelete: () => void;
  /** The service keeps no tags (production): tag actions are not offered. */
  notes: boolean;
}

/**
 * Changes to the selected records together: each puts one item per record in the change set and opens its review,
 * so they are applied as one batch per kind, one signature each.
 */
export function BulkBar({ count, shown, clearedBecause = null, onSelectShown, onClear, onTtl, onAddTag, onRemoveTag, onDelete, notes }: BulkBarProps) {
  const [ttl, setTtl] = useState(String(TTL_PRESETS[0].seconds));
  const [tag, setTag] = useState('');
  const [tagError, setTagError] = useState<string | null>(null);
  const parsed = parseTtl(ttl);
  return (
    <div role="group" aria-label="Selected records" className="flex flex-wrap items-end gap-2 rounded-xl border border-slate-200 p-2 text-sm dark:border-slate-700">
      <p className="self-center font-medium" role="status">
        {count === 0 ? (clearedBecause ? `No record selected. ${clearedBecause}.` : 'No record selected') : `${count} ${count === 1 ? 'record' : 'records'} selected`}
      </p>
      <Button size="sm" variant="secondary" onClick={onSelectShown} disabled={shown === 0}>
        Select all {shown} shown
      </Button>
      {count > 0 ? (
        <>
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
          <div className="w-36">
            <Select label="New TTL" value={ttl} onChange={(e) => setTtl(e.target.value)} options={TTL_PRESETS.map((p) => ({ value: String(p.seconds), label: p.label }))} />
          </div>
          <Button size="sm" onClick={() => parsed.ok && onTtl(parsed.value)} disabled={!parsed.ok}>
            Set TTL to {parsed.ok ? ttlInWords(parsed.value) : '…'}
          </Button>
          {notes ? (
            <>
              <div className="w-40">
                <TextField
                  label="Tag"
                  value={tag}
                  error={tagError ?? undefined}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => {
                    setTag(e.target.value.trim());
                    setTagError(null);
                  }}
                />
              </div>
              <Button size="sm" variant="secondary" disabled={tag === ''} onClick={() => setTagError(onAddTag(tag))}>
                Add tag
              </Button>
              <Button size="sm" variant="secondary" disabled={tag === ''} onClick={() => onRemoveTag(tag)}>
                Remove tag
              </Button>
            </>
          ) : null}
          <Button size="sm" variant="danger" onClick={onDelete}>
            Delete selected
          </Button>
        </>
      ) : null}
    </div>
  );
}
