import { z } from 'zod';
import { operations, type OperationId } from '#core/operations/index.ts';
import { callOperation, type AgentCredential, type ServiceLink } from './service-call.ts';
import type { McpStores } from './stores.ts';

/** What every tool is given: the way to the service, the agent's key, the plans and quotes, where the dashboard is. */
export interface ToolContext {
  link: ServiceLink;
  credential: AgentCredential;
  stores: McpStores;
  dashboardUrl: string;
  now: () => Date;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One MCP tool: its name (the interface), schemas, annotations, the words an agent reads, and what it runs. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run: (args: Record<string, unknown>, ctx: ToolContext) => Promise<Record<string, unknown>>;
}

/** A refusal the agent can act on: the reason, and the fields (by name) that caused it. Sent as a tool error. */
export class ToolRefusal extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, string[]> = {},
    readonly status?: number,
  ) {
    super(message);
  }
}

export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const SETTING: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** Whether an operation spends the wallet's credit, from its declaration: it answers 402 (Payment Required) when short. */
function spendsCredit(id: OperationId): boolean {
  const declared = operations[id] as { errors?: readonly number[] };
  return declared.errors?.includes(402) ?? false;
}

/**
 * A tool's annotations, given what it runs: a tool that runs an operation spending credit is destructive whatever its
 * table says (money spent is not given back by any later call), so an agent's host asks the person before it.
 */
export function annotationsFor(id: OperationId, annotations: ToolAnnotations): ToolAnnotations {
  return spendsCredit(id) ? { ...annotations, readOnlyHint: false, destructiveHint: true } : annotations;
}

/** Calls an operation; a refusal by the service becomes a ToolRefusal with its message and fields. */
export async function call(ctx: ToolContext, id: OperationId, input: unknown, params?: Record<string, string>): Promise<unknown> {
  const reply = await callOperation(ctx.link, ctx.credential, id, input, params);
  if (!reply.ok) throw new ToolRefusal(refusalWords(reply.status, reply.message), reply.fields, reply.status);
  return reply.body;
}

function refusalWords(status: number, message: string): string {
  if (status >= 500) return `The service failed (${status}): ${message}`;
  if (status === 401) return `${message}. Tools that change or spend need an API key (x-api-key or Authorization: Bearer, or NAMEFI_API_KEY for the stdio program).`;
  if (status === 403) return `${message}. This key may not do that: ask the person to do it in the dashboard, or use prepare_signature so their wallet signs it.`;
  return message;
}

type Shape = Record<string, z.ZodType>;
const isObject = (schema: z.ZodType): schema is z.ZodObject => schema instanceof z.ZodObject;

/**
 * A tool that is one operation: its input is the operation's input (and path parameters), its output the operation's
 * output (a list or a value is wrapped as `{[wrap]: …}`, MCP's structured content being an object). A new operation
 * that maps one to one is one line of the tool table.
 */
export function operationTool(
  name: string,
  id: OperationId,
  options: { title: string; ask: string; annotations: ToolAnnotations; wrap?: string },
): Tool {
  const operation = operations[id] as { input?: z.ZodType; params?: z.ZodObject; output: z.ZodType; summary: string };
  const inputShape: Shape = { ...operation.params?.shape, ...(operation.input && isObject(operation.input) ? operation.input.shape : {}) };
  const paramNames = Object.keys(operation.params?.shape ?? {});
  const wrap = options.wrap ?? 'result';
  const output = isObject(operation.output) ? operation.output : z.object({ [wrap]: operation.output });
  return {
    name,
    title: options.title,
    description: `${operation.summary} (operation ${id}). ${options.ask}`,
    input: z.object(inputShape),
    output,
    annotations: annotationsFor(id, options.annotations),
    async run(args, ctx) {
      const params = Object.fromEntries(paramNames.map((key) => [key, String(args[key])]));
      const rest = Object.fromEntries(Object.entries(args).filter(([key]) => !paramNames.includes(key)));
      const body = await call(ctx, id, operation.input ? rest : undefined, params);
      return isObject(operation.output) ? (body as Record<string, unknown>) : { [wrap]: body };
    },
  };
}
