import type { OperationId, OperationInput, OperationResult } from '#core/operations/index.ts';
import type { Principal, Services } from '../services.ts';
import type { CompressedJson } from '../support/compressed-json.ts';
import type { WithHeaders } from './router.ts';

export interface RequestContext<I = unknown> {
  operationId: OperationId;
  input: I;
  params: Record<string, string>;
  principal: Principal | null;
  services: Services;
  request: Request;
}

/** What a handler answers: its operation's output, or an answer made already (compressed JSON, with headers, a Response). */
type HandlerResult<K extends OperationId> = OperationResult<K> | CompressedJson | WithHeaders | Response;
/** One operation's handler, typed from its declaration: the parsed input in, the output (as its schema reads it) out. */
type Handler<K extends OperationId> = (ctx: RequestContext<OperationInput<K>>) => Promise<HandlerResult<K>>;
export type Handlers = { [K in OperationId]?: Handler<K> };
