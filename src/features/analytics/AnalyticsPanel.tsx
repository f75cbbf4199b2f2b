import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ApiError } from '@/lib/api-error.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { fullName } from '#core/dns/names.ts';
import { recordsQueryOptions } from '@/features/records/index.ts';
import { Button, Card, Notice, Select, Spinner } from '@/ui/index.ts';
import { isAnalyticsUnsupported, WINDOWS, zoneAnalyticsQuery, type WindowId } from './api/get-zone-analytics.ts';
import { colourOf, QueryChart } from './components/QueryChart.tsx';
import { barLabel, chartOf, stepInWords, type StackBy } from './model/chart.ts';
import { findingsOf } from './model/findings.ts';

const WINDOW_OPTIONS = Object.entries(WINDOWS).map(([value, w]) => ({ value, label: w.label }));
const STACK_OPTIONS = [
  { value: 'type', label: 'Query type' },
  { value: 'rcode', label: 'Answer' },
];

/**
 * The Analytics tab of a domain (ours): what the service's name server answered for the zone, as stacked bars by
 * query type or answer with a table of the same numbers, the most asked names, and findings in words. `onAddRecord`
 * opens the record form with a name and type filled in. Against a service without analytics (production), it says so.
 */
export default function AnalyticsPanel({ domain, onAddRecord }: { domain: string; onAddRecord: (record: { name: string; type: RecordType }) => void }) {
  const zoneName = domain.toLowerCase();
  const api = useApi();
  const session = useWalletSession();
  const { apiKey } = useSettings();
  const canRead = session.status === 'signed-in' || Boolean(apiKey);
  const [windowId, setWindowId] = useState<WindowId>('day');
  const [stackBy, setStackBy] = useState<StackBy>('type');
  const [asTable, setAsTable] = useState(false);
  const data = useQuery(zoneAnalyticsQuery(api, zoneName, windowId, canRead));
  const unsupported = isAnalyticsUnsupported(data.error as ApiError | null);
  const month = useQuery(zoneAnalyticsQuery(api, zoneName, 'month', canRead && !unsupported && windowId !== 'month' && data.isSuccess));
  const records = useQuery({ ...recordsQueryOptions(api, zoneName), enabled: canRead && data.isSuccess });
  const chart = useMemo(() => (data.data ? chartOf(data.data, stackBy) : null), [data.data, stackBy]);
  const findings = useMemo(
    () => (data.data ? findingsOf(zoneName, data.data, windowId === 'month' ? data.data : month.data, records.data) : []),
    [zoneName, data.data, month.data, records.data, windowId],
  );

  const heading = (
    <h2 id="analytics-heading" className="text-lg font-semibold">
      Analytics
    </h2>
  );
  if (!canRead) {
    return (
      <Notice title="Sign in to see the analytics" actions={<Button onClick={() => void session.requestSignIn().catch(() => undefined)}>Sign in</Button>}>
        Only the owner of {zoneName} reads what its name server answered.
      </Notice>
    );
  }
  if (unsupported) {
    return (
      <section aria-labelledby="analytics-heading">
        <Card className="space-y-2">
          {heading}
          <p className="text-sm">Query analytics need this project's own service: the service this dashboard is connected to does not count the queries it answers.</p>
        </Card>
      </section>
    );
  }
  if (data.isPending) return <Spinner label="Loading the analytics" />;
  if (data.isError || !chart) {
    const explained = explainError(data.error, { domain: zoneName });
    return (
      <Notice tone="danger" title="The analytics could not be loaded" actions={<Button onClick={() => void data.refetch()}>Try again</Button>}>
        {explained.title}
        {explained.description ? `: ${explained.description}` : ''}
      </Notice>
    );
  }
  const total = chart.bars.reduce((n, b) => n + b.total, 0);
  const topNames = data.data.topNames.slice(0, 20);

  return (
    <section aria-labelledby="analytics-heading" className="space-y-4">
      <Card className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            {heading}
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {total.toLocaleString('en')} {total === 1 ? 'query' : 'queries'} answered by the name server, per {stepInWords(chart.step)} (UTC).
            </p>
          </div>
          <div className="flex flex-wrap items-end gap-2">
            <Select label="Window" value={windowId} onChange={(e) => setWindowId(e.target.value as WindowId)} options={WINDOW_OPTIONS} />
            <Select label="Stack by" value={stackBy} onChange={(e) => setStackBy(e.target.value as StackBy)} options={STACK_OPTIONS} />
            <Button variant="secondary" aria-pressed={asTable} onClick={() => setAsTable((t) => !t)}>
              {asTable ? 'Show chart' : 'Show as table'}
            </Button>
          </div>
        </div>
        {total === 0 ? (
          <p className="text-sm">No queries in this window yet. Queries to the service's name server (UDP, TCP or DNS over HTTPS) show here within seconds.</p>
        ) : asTable ? (
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
        ) : (
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
        )}
      </Card>

      {findings.length > 0 ? (
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
      ) : null}

      {topNames.length > 0 ? (
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
      ) : null}
    </section>
  );
}
