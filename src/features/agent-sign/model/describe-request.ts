import { operations, zoneOf, type ZoneChangingOperationId } from '#core/operations/index.ts';
import type { AgentRequest } from '#core/agent-sign.ts';

type Rec = { id?: string; name?: string; type?: string; rdata?: string; ttl?: number };
const at = (name: string | undefined, zone: string) => (!name || name === '@' ? zone : `${name}.${zone}`);
const ttl = (r: Rec) => (r.ttl === undefined ? '' : ` (TTL ${r.ttl} s)`);
const added = (r: Rec, zone: string) => `Add a ${r.type} record at ${at(r.name, zone)}: ${r.rdata}${ttl(r)}`;
const changed = (r: Rec, zone: string) =>
  `Change record ${r.id} of ${zone}: ${[r.type && `type ${r.type}`, r.name && `name ${at(r.name, zone)}`, r.rdata && `value ${r.rdata}`, r.ttl !== undefined && `TTL ${r.ttl} s`].filter(Boolean).join(', ')}`;

/**
 * What an agent's prepared change does, in words, one line per thing it changes: the records a record operation
 * adds, changes or deletes; otherwise each field the operation takes. Said before the wallet opens.
 */
export function describeAgentRequest(request: AgentRequest): { title: string; zone: string | null; lines: string[] } {
  const { operationId, payload } = request;
  const operation = operations[operationId as keyof typeof operations];
  const zone = operation && 'zone' in operation ? zoneOf(operationId as ZoneChangingOperationId, payload as never) : null;
  const z = zone ?? '';
  const records = (payload.records ?? []) as Rec[];
  let lines: string[];
  switch (operationId) {
    case 'createDnsRecord':
      lines = [added(payload as Rec, z)];
      break;
    case 'batchCreateDnsRecords':
      lines = records.map((r) => added(r, z));
      break;
    case 'updateDnsRecord':
      lines = [changed(payload as Rec, z)];
      break;
    case 'batchUpdateDnsRecords':
      lines = records.map((r) => changed(r, z));
      break;
    case 'deleteDnsRecord':
      lines = [`Delete record ${String(payload.id)} of ${z}`];
      break;
    case 'batchDeleteDnsRecords':
      lines = ((payload.recordsIds ?? []) as string[]).map((id) => `Delete record ${id} of ${z}`);
      break;
    default:
      lines = Object.entries(payload).map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return { title: operation?.summary ?? operationId, zone, lines };
}
