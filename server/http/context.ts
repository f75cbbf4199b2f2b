import type { Queryable } from '../db/database.ts';
import type { OperationId } from '../../src/core/operations.ts';
import type { Principal, Services } from '../services.ts';

export type { Principal, Services };

export interface RequestContext<I = unknown> {
  operationId: OperationId;
  input: I;
  params: Record<string, string>;
  principal: Principal | null;
  services: Services;
  request: Request;
}

export type Handler<I = any> = (ctx: RequestContext<I>) => Promise<unknown>;
export type Handlers = Partial<Record<OperationId, Handler>>;
export type { Queryable };
