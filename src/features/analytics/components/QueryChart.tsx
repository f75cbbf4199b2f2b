import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { STEP_MS } from '#core/analytics/buckets.ts';
import { stackedColumns, type Chart } from '../model/chart.ts';

/** Colours for the stacks, in order; with a legend beside them, never the only way to tell the parts apart. */
const STACK_COLOURS = ['#2563eb', '#16a34a', '#dc2626', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569'];
export const colourOf = (index: number) => STACK_COLOURS[index % STACK_COLOURS.length];

const HEIGHT = 220;

/**
 * Queries over time as stacked bars, drawn by uPlot (a small, maintained canvas chart, loaded only with this tab).
 * Follows its container's width, so it fits a phone. Hidden from screen readers, which read the table of the same
 * numbers instead; the legend beside it names the colours.
 */
export function QueryChart({ chart }: { chart: Chart }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const { keys, columns } = stackedColumns(chart);
    const colourOfKey = (key: string) => colourOf(chart.keys.indexOf(key));
    const bars = uPlot.paths.bars!({ size: [0.8, 48], align: 0 });
    // A canvas cannot draw in currentColor: the text colour the page gives the chart, read once.
    const ink = getComputedStyle(element).color;
    const half = STEP_MS[chart.step] / 2000;
    const plot = new uPlot(
      {
        width: Math.max(200, element.clientWidth),
        height: HEIGHT,
        // The service counts in UTC minutes, hours and days: the axis says UTC too.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true, range: (_u, min, max) => [min - half, max + half] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          // uPlot's own time ticks: as many as fit, the date only where it changes.
          { stroke: ink, grid: { show: false } },
          { stroke: ink, grid: { stroke: 'rgba(100,116,139,0.2)' } },
        ],
        series: [{}, ...keys.map((key) => ({ label: key, stroke: colourOfKey(key), fill: colourOfKey(key), width: 0, paths: bars, points: { show: false } }))],
      },
      columns as uPlot.AlignedData,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [chart]);
  return <div ref={box} className="w-full text-slate-600 dark:text-slate-300" aria-hidden="true" data-testid="analytics-chart" />;
}
