import type { DiffLine } from '../model/actions.ts';

export function DiffList({ diff }: { diff: DiffLine[] }) {
  if (diff.length === 0) return null;
  return (
    <ul className="mt-1 rounded bg-slate-50 p-2 font-mono text-xs dark:bg-slate-800" aria-label="Changes">
      {diff.map((d) => (
        <li key={`${d.op}${d.text}`} className={d.op === '+' ? 'text-green-800 dark:text-green-300' : 'text-red-800 dark:text-red-300'}>
          {d.op} {d.text}
        </li>
      ))}
    </ul>
  );
}
