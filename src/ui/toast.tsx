import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { cx } from './cx.ts';

type ToastTone = 'success' | 'error' | 'info';
export interface ToastInput {
  tone: ToastTone;
  title: string;
  description?: string;
  /** Milliseconds; errors stay until dismissed unless given one. */
  durationMs?: number;
}
interface ToastItem extends ToastInput {
  id: number;
  /** How many times the same toast was asked for while it showed. */
  repeats: number;
}

/** Success goes quickly; information stays a little longer; errors stay until dismissed. */
const DEFAULT_DURATION_MS: Record<ToastTone, number | undefined> = { success: 2500, info: 4000, error: undefined };
const MAX_TOASTS = 3;

const ToastContext = createContext<{ toast: (input: ToastInput) => void } | null>(null);

export function useToast(): { toast: (input: ToastInput) => void } {
  const context = useContext(ToastContext);
  if (!context) throw new Error('useToast needs a <ToastProvider> above it');
  return context;
}

const toneStyles: Record<ToastTone, string> = {
  success: 'border-green-600 bg-green-50 text-green-950 dark:bg-green-950 dark:text-green-50',
  error: 'border-red-600 bg-red-50 text-red-950 dark:bg-red-950 dark:text-red-50',
  info: 'border-sky-600 bg-sky-50 text-sky-950 dark:bg-sky-950 dark:text-sky-50',
};

export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const [expanded, setExpanded] = useState(false);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setItems((all) => all.filter((t) => t.id !== id));
  }, []);
  const toast = useCallback(
    (input: ToastInput) => {
      const duration = input.durationMs ?? DEFAULT_DURATION_MS[input.tone];
      const schedule = (id: number) => {
        clearTimeout(timers.current.get(id));
        if (duration) timers.current.set(id, setTimeout(() => dismiss(id), duration));
      };
      setItems((all) => {
        // The same message again (a double refusal, a retried write) counts up on the one toast instead of stacking.
        const same = all.find((t) => t.tone === input.tone && t.title === input.title && t.description === input.description);
        if (same) {
          schedule(same.id);
          return [...all.filter((t) => t !== same), { ...same, repeats: same.repeats + 1 }];
        }
        const id = nextId.current++;
        schedule(id);
        return [...all.slice(-(MAX_TOASTS - 1)), { ...input, id, repeats: 1 }];
      });
    },
    [dismiss],
  );
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);
  useEffect(() => {
    if (items.length < 2) setExpanded(false);
  }, [items.length]);
  const regionRef = useReservedSpace();
  const value = useMemo(() => ({ toast }), [toast]);
  const newest = items.length - 1;
  return (
    <ToastContext.Provider value={value}>
      {children}
      {/* One stack at the bottom: the newest on top, older ones peeking behind it until expanded. The page keeps
          room for it below its content (see useReservedSpace), so it never hides a control for good. */}
      <div ref={regionRef} aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center p-3 sm:items-end sm:p-4">
        {items.length > 1 ? (
          <button
            type="button"
            onClick={() => setExpanded((e) => !e)}
            aria-expanded={expanded}
            className="pointer-events-auto mb-1 rounded-full bg-slate-800 px-3 py-1 text-xs font-medium text-white dark:bg-slate-200 dark:text-slate-900"
          >
            {expanded ? 'Show fewer' : `${items.length} messages: show all`}
          </button>
        ) : null}
        <div className={cx('w-full max-w-sm', expanded ? 'flex flex-col gap-2' : 'grid')}>
          {items.map((item, index) => {
            const depth = newest - index;
            return (
              <div
                key={item.id}
                role={item.tone === 'error' ? 'alert' : 'status'}
                style={expanded ? undefined : { transform: `translateY(${-6 * depth}px) scale(${1 - 0.04 * depth})`, zIndex: index }}
                className={cx(
                  'pointer-events-auto w-full rounded-lg border-l-4 p-3 shadow-lg',
                  expanded ? '' : '[grid-area:1/1] self-end',
                  toneStyles[item.tone],
                )}
              >
                <div className="flex items-start justify-between gap-3" aria-hidden={!expanded && depth > 0 ? true : undefined}>
                  <div className="min-w-0">
                    <p className="text-sm font-semibold">
                      {item.title}
                      {item.repeats > 1 ? <span className="ml-1 font-normal">(×{item.repeats})</span> : null}
                    </p>
                    {item.description ? <p className="mt-0.5 text-sm break-words">{item.description}</p> : null}
                  </div>
                  <button
                    type="button"
                    onClick={() => dismiss(item.id)}
                    className="rounded px-1 text-sm opacity-80 hover:opacity-100"
                    aria-label={`Dismiss: ${item.title}`}
                    tabIndex={!expanded && depth > 0 ? -1 : undefined}
                  >
                    ✕
                  </button>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

/**
 * Keeps room at the end of the page as tall as the toast stack (the --toast-space custom property, used by the
 * body's bottom padding), so whatever sits at the bottom can always be scrolled above the toasts.
 */
function useReservedSpace() {
  return useCallback((region: HTMLDivElement | null) => {
    const root = document.documentElement;
    if (!region || typeof ResizeObserver === 'undefined') {
      root.style.removeProperty('--toast-space');
      return;
    }
    const observer = new ResizeObserver(() => root.style.setProperty('--toast-space', `${region.offsetHeight}px`));
    observer.observe(region);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--toast-space');
    };
  }, []);
}
