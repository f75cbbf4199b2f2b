import { useId } from 'react';

export interface ProgressBarProps {
  /** What is under way, said to screen readers and shown above the bar: "Applying the change set". */
  label: string;
  /** Steps done so far (0 … max). */
  value: number;
  max: number;
  /** The progress in words, shown beside the label and read as aria-valuetext: "3 of 100 signatures". */
  valueText?: string;
}

/** Progress of work a person waits on for more than a second: a labelled bar with its numbers for assistive tech. */
export function ProgressBar({ label, value, max, valueText }: ProgressBarProps) {
  const id = useId();
  const clamped = Math.min(Math.max(value, 0), max);
  const percent = max > 0 ? Math.round((clamped / max) * 100) : 0;
  return (
    <div className="space-y-1">
      <div className="flex justify-between gap-2 text-sm">
        <span id={id} className="font-medium">
          {label}
        </span>
        <span className="text-slate-600 tabular-nums dark:text-slate-400">{valueText ?? `${percent}%`}</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={clamped}
        aria-valuetext={valueText}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div className="h-full rounded-full bg-brand-700 transition-[width] dark:bg-brand-400" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
