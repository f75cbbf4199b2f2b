import type { ZoneAnalytics } from '#core/wire/analytics.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { fullName } from '#core/dns/names.ts';
import { Button, Card, Select } from '@/ui/index.ts';
import { WINDOWS, type WindowId } from '../api/get-zone-analytics.ts';
import { barLabel, stepInWords, type Chart, type StackBy } from '../model/chart.ts';
import type { Finding } from '../model/findings.ts';
import { colourOf, QueryChart } from './QueryChart.tsx';

/** The Analytics tab's cards (AnalyticsPanel.tsx lays them out): the queries over time, the findings, the most asked names. */

const WINDOW_OPTIONS = Object.entries(WINDOWS).map(([value, w]) => ({ value, label: w.label }));
const STACK_OPTIONS = [
  { value: 'type', label: 'Query type' },
  { value: 'rcode', label: 'Answer' },
];

export const AnalyticsHeading = () => (
  <h2 id="analytics-heading" className="text-lg font-semibold">
    Analytics
  </h2>
);

/** The same numbers as the chart, one row per step with queries. */
function QueryTable({ chart, stackBy }: { chart: Chart; stackBy: StackBy }) {
  return (
    <div className="max-h-96 overflow-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Queries per {stepInWords(chart.step)} by {stackBy === 'type' ? 'query type' : 'answer'}</caption>
        <thead>
          <tr>
            <th scope="col">Time (UTC)</th>
            {chart.keys.map((k) => (
              <th key={k} scope="col">
                {k}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {chart.bars
            .filter((b) => b.total > 0)
            .map((b) => (
              <tr key={b.at}>
                <th scope="row" className="font-normal">
                  {barLabel(b.at, chart.step)}
                </th>
                {b.parts.map((n, k) => (
                  <td key={chart.keys[k]}>{n}</td>
                ))}
                <td>{b.total}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}

/** The stacked bars with their legend. */
function ChartFigure({ chart }: { chart: Chart }) {
  return (
    <figure className="space-y-2">
      <QueryChart chart={chart} />
      <figcaption className="flex flex-wrap gap-3 text-xs">
        {chart.keys.map((k, i) => (
          <span key={k} className="inline-flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: colourOf(i) }} />
            {k}
          </span>
        ))}
        <span className="sr-only">The table view holds the same numbers.</span>
      </figcaption>
    </figure>
  );
}

/** The queries the name server answered in the window, per step, as stacked bars or a table, with the window and stacking chosen here. */
export function QueriesCard(props: {
  chart: Chart;
  windowId: WindowId;
  onWindow: (windowId: WindowId) => void;
  stackBy: StackBy;
  onStackBy: (stackBy: StackBy) => void;
  /** Kept by the panel, so the choice outlives a window's loading. */
  asTable: boolean;
  onAsTable: (asTable: boolean) => void;
}) {
  const { chart, windowId, stackBy, asTable } = props;
  const total = chart.bars.reduce((n, b) => n + b.total, 0);
  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <AnalyticsHeading />
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {total.toLocaleString('en')} {total === 1 ? 'query' : 'queries'} answered by the name server, per {stepInWords(chart.step)} (UTC).
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <Select label="Window" value={windowId} onChange={(e) => props.onWindow(e.target.value as WindowId)} options={WINDOW_OPTIONS} />
          <Select label="Stack by" value={stackBy} onChange={(e) => props.onStackBy(e.target.value as StackBy)} options={STACK_OPTIONS} />
          <Button variant="secondary" aria-pressed={asTable} onClick={() => props.onAsTable(!asTable)}>
            {asTable ? 'Show chart' : 'Show as table'}
          </Button>
        </div>
      </div>
      {total === 0 ? (
        <p className="text-sm">No queries in this window yet. Queries to the service's name server (UDP, TCP or DNS over HTTPS) show here within seconds.</p>
      ) : asTable ? (
        <QueryTable chart={chart} stackBy={stackBy} />
      ) : (
        <ChartFigure chart={chart} />
      )}
    </Card>
  );
}

/** What the numbers say, in words; a name asked for that does not exist offers to add a record for it. */
export function FindingsCard({ findings, zoneName, onAddRecord }: { findings: Finding[]; zoneName: string; onAddRecord: (record: { name: string; type: RecordType }) => void }) {
  if (findings.length === 0) return null;
  return (
    <Card className="space-y-2">
      <h3 className="font-semibold">What the numbers say</h3>
      <ul className="space-y-2 text-sm">
        {findings.map((f) => (
          <li key={`${f.kind} ${'name' in f ? f.name : ''} ${'type' in f ? f.type : ''}`} className="flex flex-wrap items-center justify-between gap-2">
            <span>{f.text}</span>
            {f.kind === 'nxdomain' && f.add ? (
              <Button size="sm" variant="secondary" onClick={() => onAddRecord(f.add as { name: string; type: RecordType })} aria-label={`Add a record for ${fullName(f.name, zoneName)}`}>
                Add a record
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The twenty names, types and answers asked most in the window. */
export function TopNamesCard({ topNames, zoneName }: { topNames: ZoneAnalytics['topNames']; zoneName: string }) {
  if (topNames.length === 0) return null;
  return (
    <Card className="space-y-2">
      <h3 id="top-names-heading" className="font-semibold">
        Most asked names
      </h3>
      <div className="overflow-x-auto">
        <table aria-labelledby="top-names-heading" className="w-full text-left text-sm">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Answer</th>
              <th scope="col">Queries</th>
            </tr>
          </thead>
          <tbody>
            {topNames.map((t) => (
              <tr key={`${t.name} ${t.type} ${t.rcode}`}>
                <td className="break-all">{fullName(t.name, zoneName)}</td>
                <td>{t.type}</td>
                <td>{t.rcode}</td>
                <td>{t.count.toLocaleString('en')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
