// The analytics feature's public face for other features: the Domains list's week of queries per domain. The tab
// itself (AnalyticsPanel) is mounted lazily by src/app.
export { analyticsSummaryQuery } from './api/get-analytics-summary.ts';
