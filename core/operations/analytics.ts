import * as analytics from '../wire/analytics.ts';
import { op } from './define.ts';

export const analyticsOperations = {
  getZoneAnalytics: op({
    id: 'getZoneAnalytics', method: 'GET', path: '/dns/analytics', tag: 'dns',
    summary: 'What the service\u2019s name server answered for a zone: queries per minute, hour or day by type, answer, transport and DO bit, and the most asked names, over at most 31 days (ours; the owner)',
    auth: 'siwe', input: analytics.analyticsQuery, output: analytics.zoneAnalytics, errors: [403, 404],
  }),
  getAnalyticsSummary: op({
    id: 'getAnalyticsSummary', method: 'GET', path: '/dns/analytics/summary', tag: 'dns',
    summary: 'Queries a day for every zone the caller holds, over the last days (7 unless asked, at most 31): the Domains list\u2019s sparklines in one request (ours)',
    auth: 'siwe', input: analytics.analyticsSummaryQuery, output: analytics.analyticsSummary, errors: [401],
  }),
};
