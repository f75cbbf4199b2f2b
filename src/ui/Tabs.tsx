import { Suspense, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cx } from './cx.ts';
import { Spinner } from './Spinner.tsx';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

/** WAI-ARIA tabs: arrow keys move between tabs, only the selected one is in the tab order. */
export function Tabs({ items, selected, onSelect, label }: { items: TabItem[]; selected: string; onSelect: (id: string) => void; label: string }) {
  const base = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    const next = items[(index + delta + items.length) % items.length];
    onSelect(next.id);
    refs.current[next.id]?.focus();
  };
  return (
    <div>
      <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-700">
        {items.map((item, index) => (
          <button
            key={item.id}
            ref={(el) => {
              refs.current[item.id] = el;
            }}
            role="tab"
            type="button"
            id={`${base}-tab-${item.id}`}
            aria-selected={item.id === selected}
            aria-controls={`${base}-panel-${item.id}`}
            tabIndex={item.id === selected ? 0 : -1}
            onClick={() => onSelect(item.id)}
            onKeyDown={(e) => onKeyDown(e, index)}
            className={cx(
              '-mb-px shrink-0 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
              item.id === selected
                ? 'border-brand-700 text-brand-800 dark:border-brand-400 dark:text-brand-300'
                : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100',
            )}
          >
            {item.label}
          </button>
        ))}
      </div>
      {items.map((item) =>
        item.id === selected ? (
          <div key={item.id} role="tabpanel" id={`${base}-panel-${item.id}`} aria-labelledby={`${base}-tab-${item.id}`} className="pt-4">
            {/* A tab whose code is still loading shows a spinner in its panel; without this boundary the whole page
                would give way to the route's fallback until the tab's chunk arrives. */}
            <Suspense fallback={<Spinner label={`Loading ${typeof item.label === 'string' ? item.label : 'the tab'}`} />}>{item.content}</Suspense>
          </div>
        ) : null,
      )}
    </div>
  );
}
