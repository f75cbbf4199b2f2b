import type { RecordType } from '#core/wire/dns.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { Button, Card, Notice, Spinner } from '@/ui/index.ts';
import { AnalyticsHeading, FindingsCard, QueriesCard, TopNamesCard } from './components/AnalyticsParts.tsx';
import { useZoneAnalytics } from './use-zone-analytics.ts';

/**
 * The Analytics tab of a domain (ours): what the service's name server answered for the zone, as stacked bars by
 * query type or answer with a table of the same numbers, the most asked names, and findings in words. `onAddRecord`
 * opens the record form with a name and type filled in. Against a service without analytics (production), it says so.
 */
export default function AnalyticsPanel({ domain, onAddRecord }: { domain: string; onAddRecord: (record: { name: string; type: RecordType }) => void }) {
  const zoneName = domain.toLowerCase();
  const { session, canRead, windowId, setWindowId, stackBy, setStackBy, asTable, setAsTable, data, unsupported, chart, findings } = useZoneAnalytics(zoneName);

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
          <AnalyticsHeading />
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

  return (
    <section aria-labelledby="analytics-heading" className="space-y-4">
      <QueriesCard chart={chart} windowId={windowId} onWindow={setWindowId} stackBy={stackBy} onStackBy={setStackBy} asTable={asTable} onAsTable={setAsTable} />
      <FindingsCard findings={findings} zoneName={zoneName} onAddRecord={onAddRecord} />
      <TopNamesCard topNames={data.data.topNames.slice(0, 20)} zoneName={zoneName} />
    </section>
  );
}
