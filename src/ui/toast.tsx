import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { cx } from './cx.ts';

export type ToastTone = 'success' | 'error' | 'info';
export interface ToastInput {
  tone: ToastTone;
  title: string;
  description?: string;
  /** Milliseconds; errors stay until dismissed unless given one. */
  durationMs?: number;
}
interface ToastItem extends ToastInput {
  id: number;
}

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
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setItems((all) => all.filter((t) => t.id !== id)), []);
  const toast = useCallback(
    (input: ToastInput) => {
      const id = nextId.current++;
      setItems((all) => [...all.slice(-4), { ...input, id }]);
      const duration = input.durationMs ?? (input.tone === 'error' ? undefined : 6000);
      if (duration) setTimeout(() => dismiss(id), duration);
    },
    [dismiss],
  );
  const value = useMemo(() => ({ toast }), [toast]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end">
        {items.map((item) => (
          <div
            key={item.id}
            role={item.tone === 'error' ? 'alert' : 'status'}
            className={cx('pointer-events-auto w-full max-w-sm rounded-lg border-l-4 p-3 shadow-lg', toneStyles[item.tone])}
          >
            <div className="flex items-start justify-between gap-3">
              <div>
                <p className="text-sm font-semibold">{item.title}</p>
                {item.description ? <p className="mt-0.5 text-sm">{item.description}</p> : null}
              </div>
              <button
                type="button"
                onClick={() => dismiss(item.id)}
                className="rounded px-1 text-sm opacity-80 hover:opacity-100"
                aria-label={`Dismiss: ${item.title}`}
              >
                ✕
              </button>
            </div>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
