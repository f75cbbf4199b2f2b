import { barLabel, type Chart } from '../model/chart.ts';

/** Colours for the stacks, in order; with a legend beside them, never the only way to tell the parts apart. */
const STACK_COLOURS = ['#2563eb', '#16a34a', '#dc2626', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569'];
export const colourOf = (index: number) => STACK_COLOURS[index % STACK_COLOURS.length];

const WIDTH = 640;
const HEIGHT = 200;
const LEFT = 36;
const BOTTOM = 18;

/**
 * Queries over time as stacked bars, in plain SVG (no chart library is installed; a small one such as uPlot would
 * replace this). Scales to its container's width, so it fits a phone. Hidden from screen readers, which read the
 * table of the same numbers instead.
 */
export function StackedBars({ chart }: { chart: Chart }) {
  const plotW = WIDTH - LEFT;
  const plotH = HEIGHT - BOTTOM;
  const n = Math.max(1, chart.bars.length);
  const slot = plotW / n;
  const barW = Math.max(1, slot * 0.8);
  const max = chart.max || 1;
  const y = (v: number) => plotH - (v / max) * plotH;
  const labelEvery = Math.max(1, Math.ceil(n / 6));
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full" aria-hidden="true" data-testid="analytics-chart" preserveAspectRatio="none">
      <line x1={LEFT} x2={WIDTH} y1={plotH} y2={plotH} stroke="currentColor" strokeOpacity={0.3} />
      <text x={LEFT - 4} y={10} textAnchor="end" fontSize={10} fill="currentColor">
        {chart.max.toLocaleString('en')}
      </text>
      <text x={LEFT - 4} y={plotH} textAnchor="end" fontSize={10} fill="currentColor">
        0
      </text>
      {chart.bars.map((bar, i) => {
        let top = plotH;
        const x = LEFT + i * slot + (slot - barW) / 2;
        return (
          <g key={bar.at}>
            {bar.parts.map((count, k) => {
              if (count === 0) return null;
              const h = plotH - y(count);
              top -= h;
              return (
                <rect key={chart.keys[k]} x={x} y={top} width={barW} height={h} fill={colourOf(k)}>
                  <title>{`${barLabel(bar.at, chart.step)}: ${chart.keys[k]} ${count}`}</title>
                </rect>
              );
            })}
            {i % labelEvery === 0 ? (
              <text x={x} y={HEIGHT - 4} fontSize={10} fill="currentColor">
                {barLabel(bar.at, chart.step)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
