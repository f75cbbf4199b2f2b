import * as history from '../wire/history.ts';
import { op } from './define.ts';

export const historyOperations = {
  getZoneHistory: op({ id: 'getZoneHistory', method: 'GET', path: '/dns/history', tag: 'dns', summary: 'A zone\u2019s changes, newest first, a page at a time (the owner only)', auth: 'siwe', input: history.historyQuery, output: history.historyPage }),
  exportZoneHistory: op({ id: 'exportZoneHistory', method: 'GET', path: '/dns/history/export', tag: 'dns', summary: 'Every change of a zone as NDJSON, oldest first (the owner only)', auth: 'siwe', input: history.historyExportQuery, output: history.historyEntry }),
};
