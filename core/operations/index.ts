import type { z } from 'zod';
import type { Operation, Signed, ZoneEffect } from './define.ts';
import { eip712Operations } from './eip712.ts';
import { siweOperations } from './siwe.ts';
import { recordOperations } from './records.ts';
import { domainConfigOperations } from './domain-config.ts';
import { historyOperations } from './history.ts';
import { searchOperations } from './search.ts';
import { orderOperations } from './orders.ts';
import { x402Operations } from './x402.ts';
import { userOperations } from './user.ts';
import { analyticsOperations } from './analytics.ts';
import { accessOperations } from './access.ts';
import { doorOperations } from './doors.ts';

export type { AccountFact, AuthMode, DomainFact, Operation, PayloadCheck, Signed, ZoneEffect } from './define.ts';
import { factsChangedBy, orderFinishedFacts, zoneMovedFacts, type FactsChanged } from './changes.ts';
export type { FactsChanged } from './changes.ts';

/**
 * Every operation of the contract, each declared once in the file of its group (the contract's tags: records, domain-config, orders, …), so a new operation of a group touches its group's file alone. The service routes, authenticates,
 * verifies and documents from this table, the EIP-712 registry is made of its structs, and the dashboard calls by
 * its ids. The order is the table's: the router mounts, the OpenAPI document lists and `/eip712/types-for-method`
 * names the signed operations in it.
 */
export const operations = {
  ...eip712Operations,
  ...siweOperations,
  ...recordOperations,
  ...domainConfigOperations,
  ...historyOperations,
  ...searchOperations,
  ...orderOperations,
  ...x402Operations,
  ...userOperations,
  ...analyticsOperations,
  ...accessOperations,
  ...doorOperations,
} satisfies Record<string, Operation>;

type Table = typeof operations;
export type OperationId = keyof Table;

type SchemaOf<K extends OperationId, P extends 'input' | 'output' | 'params'> = Table[K] extends { [Q in P]: infer S extends z.ZodType } ? S : undefined;
/** What a client reads back: the output schema's output. */
export type OperationOutput<K extends OperationId> = z.infer<Table[K]['output']>;
/** The input a handler is given: the input schema's output (parsed), or nothing for an operation without input. */
export type OperationInput<K extends OperationId> = K extends OperationId ? (SchemaOf<K, 'input'> extends z.ZodType ? z.output<SchemaOf<K, 'input'>> : undefined) : never;
/** What a client sends: the input schema's input. */
export type OperationRequest<K extends OperationId> = K extends OperationId ? (SchemaOf<K, 'input'> extends z.ZodType ? z.input<SchemaOf<K, 'input'>> : undefined) : never;
/** What a client sends to a signed operation: always an object (an envelope's payload). */
export type SignedRequest<K extends SignedOperationId> = Extract<OperationRequest<K>, Record<string, unknown>>;
/** What a handler returns, before it is sent as JSON. */
export type OperationResult<K extends OperationId> = z.input<Table[K]['output']>;

/** The operations that take an EIP-712 envelope. */
export type SignedOperationId = { [K in OperationId]: Table[K] extends { signed: Signed } ? K : never }[OperationId];
/** The operations that change a zone. */
export type ZoneChangingOperationId = { [K in OperationId]: Table[K] extends { zone: ZoneEffect } ? K : never }[OperationId];

/** One operation's declaration by id, for an id that came from outside (a query, a stored entry): undefined when none is. */
export function operationById(id: string): Operation | undefined {
  return Object.hasOwn(operations, id) ? (operations as Record<string, Operation>)[id] : undefined;
}

/** Every declaration, in the table's order. */
export const allOperations = (): Array<Operation & { id: OperationId }> => Object.values(operations) as Array<Operation & { id: OperationId }>;

/** The signed operations, in the table's order. */
export const signedOperations = (): Array<Operation & { id: SignedOperationId; signed: Signed }> =>
  allOperations().filter((o): o is Operation & { id: SignedOperationId; signed: Signed } => o.signed !== undefined);

/** Every operation that changes a zone, with how: what a test of the zone-change pipeline runs. */
export const zoneChangingOperations = (): Array<Operation & { id: ZoneChangingOperationId; zone: ZoneEffect }> =>
  allOperations().filter((o): o is Operation & { id: ZoneChangingOperationId; zone: ZoneEffect } => o.zone !== undefined);

/** The zone an operation's input changes. */
export function zoneOf<K extends ZoneChangingOperationId>(id: K, input: OperationInput<K>): string {
  return (operations[id].zone.of as (input: unknown) => string)(input);
}

/** What the wallet signs for this call, in one line (the operations whose calls are said before the wallet opens). */
export function noticeOf<K extends SignedOperationId>(id: K, input: OperationRequest<K>): string | undefined {
  const notice = (operations[id].signed as Signed).notice as ((input: unknown) => string) | undefined;
  return notice?.(input);
}

/** Fills {param} placeholders of an operation path. */
export function operationPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
}

/** What a write changes that a client may be showing (derived from its declaration: ./changes.ts). */
export function factsChangedByOperation(id: OperationId): FactsChanged {
  return factsChangedBy(operations[id]);
}

/** The domain whose facts a write changes, from its request (body, query and path parameters together). */
export function domainOfRequest(id: OperationId, request: Record<string, unknown>): string | undefined {
  const of = factsChangedBy(operations[id]).of as ((request: unknown) => string) | undefined;
  if (!of) return undefined;
  const name = of(request);
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** What a zone change made elsewhere may have changed (a new serial seen by a client): derived from the table. */
export const factsOfZoneMoved = () => zoneMovedFacts(allOperations());

/** What a finished order changed: derived from the operations that order. */
export const factsOfOrderFinished = () => orderFinishedFacts(allOperations());
