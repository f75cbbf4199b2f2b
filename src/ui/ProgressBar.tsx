/** An accessible progress bar: role=progressbar with its value, maximum and a label in words. */
export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const percent = max > 0 ? Math.round((value / max) * 100) : 0;
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={value} aria-valuetext={`${value} of ${max}`} className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
      <div className="h-full bg-brand-700 transition-[width] dark:bg-brand-400" style={{ width: `${percent}%` }} />
    </div>
  );
}
