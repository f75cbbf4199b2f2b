import { sparklinePoints } from './sparkline-points.ts';

const WIDTH = 84;
const HEIGHT = 20;

/**
 * A small line of values over time (a week of queries, a day each), in plain SVG. It carries its meaning in `label`
 * (read by screen readers and shown on hover), so the numbers are never only in the shape.
 */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const points = sparklinePoints(values, WIDTH, HEIGHT);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} role="img" aria-label={label} className="inline-block align-middle text-brand-700 dark:text-brand-300">
      <title>{label}</title>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
