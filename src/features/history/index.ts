// What others may use of the history feature: the zone's history query (the refresh rule's test mounts it as the tab
// does). The tab itself (HistoryPanel) is mounted lazily by src/app.
export { zoneHistoryQuery } from './api/get-zone-history.ts';
