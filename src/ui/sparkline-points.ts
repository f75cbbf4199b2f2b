/**
 * A sparkline's polyline points: values spread evenly across the width, the largest at the top, zero on the bottom
 * line (a line of zeros lies flat on it), with a pixel of room so the stroke is never clipped.
 */
export function sparklinePoints(values: number[], width: number, height: number): string {
  if (values.length === 0) return '';
  const pad = 1;
  const max = Math.max(...values);
  const step = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  const y = (v: number) => (max === 0 ? height - pad : height - pad - (v / max) * (height - 2 * pad));
  const round = (n: number) => Math.round(n * 10) / 10;
  return values.map((v, i) => `${round(pad + i * step)},${round(y(v))}`).join(' ');
}
