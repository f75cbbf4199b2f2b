import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ApiError } from '@/lib/api-error.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { recordsQueryOptions } from '@/features/records/index.ts';
import { isAnalyticsUnsupported, zoneAnalyticsQuery, type WindowId } from './api/get-zone-analytics.ts';
import { chartOf, type StackBy } from './model/chart.ts';
import { findingsOf } from './model/findings.ts';

/**
 * The Analytics tab's reads and choices: the window on screen (and the 30-day read the findings need), the zone's
 * records, how the bars are stacked and whether as a table, and the chart and findings made from them (model/chart.ts, model/findings.ts).
 * Read only by someone signed in or acting with an API key.
 */
export function useZoneAnalytics(zoneName: string) {
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
  return { session, canRead, windowId, setWindowId, stackBy, setStackBy, asTable, setAsTable, data, unsupported, chart, findings };
}
