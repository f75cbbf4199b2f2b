import { outOfScope, scopeInWords } from '#core/access/scope.ts';
import { requireZoneReader } from '../../access/authorise.ts';
import { keyOutOfReach } from '../../auth/api-key.ts';
import type { KeyedServing, UpdateAnswer, UpdateRequest } from '../../dns-server/keyed.ts';
import type { TsigKey } from '../../dns-server/tsig.ts';
import { DomainError } from '../../domain-errors.ts';
import type { Principal, Services } from '../../services.ts';
import { dnsUpdateCommand, type DnsUpdate, type UpdateOperation } from '../../zones/dns-update.ts';
import { changeZone } from '../../zones/pipeline.ts';
import { EDE, updateAnswer, type Refusal, type UpdateRcode } from './answer.ts';
import { findTsigKey, useKey, useTransferKey, type KeyHolder } from './keys.ts';
import { CLASS, MalformedUpdate, readUpdate, TYPE, type UpdateMessage } from './message.ts';
import { NotInZone, operationsOf, prerequisitesOf, Unwritable } from './translate.ts';

/**
 * The DNS UPDATE door (RFC 2136, contract: The standard doors): a transport like HTTP. The name server reads and signs
 * the wire (server/dns-server/keyed.ts); here the message is read, the key's limits are checked for every record,
 * and the change goes to the one zone-change pipeline as one command (server/zones/dns-update.ts). Keyed transfers
 * (AXFR, IXFR signed with a whole-zone key) are decided here too.
 */

type DoorServices = Pick<Services, 'db' | 'ownership' | 'config' | 'now'>;

/** What the name server is given: the TSIG forms, UPDATE, keyed transfers. */
export function updateDoor(services: DoorServices): KeyedServing {
  const pruned = { atMs: 0 };
  return {
    findKey: (name) => findTsigKey(services.db, name, services.config.SECRETS_KEY),
    update: (message, request) => answerUpdate(services, message, request, pruned).catch((error: unknown) => failed(message, error)),
    mayTransfer: (key, zone, sender) => keyMayTransfer(services, key, zone, sender),
  };
}

class Refused extends Error {
  constructor(
    readonly rcode: UpdateRcode,
    readonly refusal?: Refusal,
  ) {
    super(refusal?.text ?? rcode);
  }
}
const prohibited = (text: string) => new Refused('REFUSED', { code: EDE.PROHIBITED, text });

function failed(message: Buffer, error: unknown): UpdateAnswer {
  console.error('DNS UPDATE failed', error);
  return { message: updateAnswer(message.readUInt16BE(0), null, 'SERVFAIL') };
}

async function answerUpdate(services: DoorServices, bytes: Buffer, request: UpdateRequest, pruned: { atMs: number }): Promise<UpdateAnswer> {
  const id = bytes.readUInt16BE(0);
  let zone: string | null = null;
  try {
    // Read first: a message that is no UPDATE (a truncated TSIG included) is FORMERR, signed or not.
    const message = readMessage(bytes);
    zone = message.zone.name;
    const { key, mac } = request;
    if (!key?.apiKeyId || !mac) throw prohibited('An UPDATE is signed with the TSIG form of a scoped API key (RFC 8945)');
    const now = services.now();
    const { holder, replayed, held } = await useKey(services.db, { apiKeyId: key.apiKeyId, mac, zone }, now, pruned);
    if (replayed) throw new Refused('REFUSED', { code: EDE.OTHER, text: 'This signed message was received before: a replayed UPDATE is not applied' });
    if (!held) throw new Refused('NOTAUTH', { code: EDE.OTHER, text: `${zone} is not a zone this service holds` });
    if (!holder) throw prohibited('The API key was revoked');
    requireKeyReach(holder, zone, now, request.sender);
    const update = await updateOf(message, request, holder);
    const principal: Principal = { wallet: holder.wallet, via: 'api-key', apiKeyId: key.apiKeyId, apiKeyScope: holder.scope, client: 'rfc2136' };
    const result = await changeZone(services, { zoneName: zone, by: { principal, operation: 'dnsUpdate' }, command: dnsUpdateCommand(zone, update) }).catch(refusalOf);
    if (result.outcome === 'prerequisite') return { message: updateAnswer(id, zone, result.rcode) };
    if (result.outcome === 'unchanged') return { message: updateAnswer(id, zone, 'NOERROR') };
    const [row] = await services.db.query<{ serial: number | string }>('SELECT zone_serial AS serial FROM domains WHERE name = $1', [zone]);
    return { message: updateAnswer(id, zone, 'NOERROR'), served: row ? { zone, serial: Number(row.serial) } : undefined };
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return { message: updateAnswer(id, zone, error.rcode, error.refusal) };
  }
}

function readMessage(bytes: Buffer): UpdateMessage {
  try {
    const message = readUpdate(bytes);
    // The zone section names one zone by its SOA (RFC 2136 §3.1.1); the service holds class IN only.
    if (message.zone.type !== TYPE.SOA) throw new MalformedUpdate('the zone section’s type is SOA');
    if (message.zone.klass !== CLASS.IN) throw new Refused('NOTAUTH', { code: EDE.OTHER, text: 'The service holds zones of class IN only' });
    return message;
  } catch (error) {
    if (error instanceof MalformedUpdate) throw new Refused('FORMERR');
    throw error;
  }
}

/** The key's own limits before any record: write access, its zones, its expiry and addresses (EDE 18). */
function requireKeyReach(holder: KeyHolder, zone: string, now: Date, sender: string | undefined): void {
  const { scope } = holder;
  if (scope.access !== 'write') throw prohibited('The API key may only read: its scope does not allow changes');
  if (scope.zones.length > 0 && !scope.zones.includes(zone)) throw prohibited(`The API key's scope does not include ${zone} (it covers ${scope.zones.join(', ')})`);
  const why = keyOutOfReach(scope, now, sender);
  if (why) throw prohibited(why.message);
}

/** The message as the zone command takes it, every record it would add or remove within the key's names and types. */
async function updateOf(message: UpdateMessage, request: UpdateRequest, holder: KeyHolder): Promise<DnsUpdate> {
  const zone = message.zone.name;
  let update: Omit<DnsUpdate, 'apex'>;
  try {
    update = { prerequisites: prerequisitesOf(message), operations: operationsOf(message) };
  } catch (error) {
    if (error instanceof MalformedUpdate) throw new Refused('FORMERR');
    if (error instanceof NotInZone) throw new Refused('NOTZONE', { code: EDE.OTHER, text: error.message });
    if (error instanceof Unwritable) throw new Refused('REFUSED', { code: EDE.OTHER, text: error.message });
    throw error;
  }
  for (const op of update.operations) {
    const outside = outOfScope(holder.scope, [{ name: op.name, type: typeOf(op) }]);
    if (outside) throw prohibited(`Out of scope: the API key covers ${scopeInWords(holder.scope)}; this update ${verbOf(op)} ${outside} of ${zone}`);
  }
  const apex = (await request.zones.find(zone).catch(() => null))?.nodes.get('@');
  return { ...update, apex: { SOA: apex?.get('SOA')?.rdatas ?? [], NS: apex?.get('NS')?.rdatas ?? [] } };
}

const typeOf = (op: UpdateOperation) => (op.kind === 'deleteName' ? 'ANY' : op.type);
const verbOf = (op: UpdateOperation) => (op.kind === 'add' ? 'adds' : op.kind === 'deleteName' ? 'deletes every record' : 'deletes');

/** The pipeline's refusals as an UPDATE's: the key's scope or wallet (EDE 18), the zone rules (EDE 0), no such zone (NOTAUTH). */
function refusalOf(error: unknown): never {
  if (!(error instanceof DomainError)) throw error;
  if (error.kind === 'forbidden' || error.kind === 'unauthorized') throw prohibited(error.message);
  if (error.kind === 'not-found') throw new Refused('NOTAUTH', { code: EDE.OTHER, text: error.message });
  throw new Refused('REFUSED', { code: EDE.OTHER, text: error.message });
}

/** A transfer signed with a key's TSIG form: a whole-zone scope (names and types empty), its addresses, its wallet's reach. */
async function keyMayTransfer(services: DoorServices, key: TsigKey, zone: string, sender: string | undefined): Promise<boolean> {
  const now = services.now();
  const holder = key.apiKeyId ? await useTransferKey(services.db, key.apiKeyId, now) : null;
  if (!holder || holder.scope.names.length > 0 || holder.scope.types.length > 0 || keyOutOfReach(holder.scope, now, sender)) return false;
  const principal: Principal = { wallet: holder.wallet, via: 'api-key', apiKeyId: key.apiKeyId, apiKeyScope: holder.scope };
  return requireZoneReader(services, services.db, zone, principal, now).then(
    () => true,
    () => false,
  );
}
