import type { Handlers } from '../http/context.ts';
import { eip712Handlers } from './eip712.ts';
import { siweHandlers } from './siwe.ts';
import { apiKeyHandlers } from './api-keys.ts';
import { dnsHandlers } from './dns.ts';
import { domainConfigHandlers } from './domain-config.ts';
import { searchHandlers } from './search.ts';
import { orderHandlers } from './orders.ts';
import { userHandlers } from './user.ts';
import { balanceHandlers } from './balance.ts';
import { x402Handlers } from './x402.ts';
import { historyHandlers } from './history.ts';
import { analyticsHandlers } from './analytics.ts';
import { accessHandlers } from './access.ts';
import { doorHandlers } from './doors.ts';

/** Every operation's handler; the operation table (core/operations/) declares the rest. */
export const handlers: Handlers = {
  ...eip712Handlers,
  ...siweHandlers,
  ...apiKeyHandlers,
  ...dnsHandlers,
  ...domainConfigHandlers,
  ...searchHandlers,
  ...orderHandlers,
  ...userHandlers,
  ...balanceHandlers,
  ...x402Handlers,
  ...historyHandlers,
  ...analyticsHandlers,
  ...accessHandlers,
  ...doorHandlers,
};
