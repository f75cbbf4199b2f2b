import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import type { DnsRecord } from '../wire/dns.ts';
import type { HistoryEntry } from '../wire/history.ts';
import { buildEnvelope, envelopeTypedData } from './envelope.ts';
import { TYPE_REGISTRY, typesReachableFrom } from './registry.ts';
import { verifyHistoryEntry } from './verify-history-entry.ts';

const key = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const DOMAIN = { name: 'Namefi Local', version: '1' };
const AT = '2026-11-25T10:00:00.000Z';
const SIGNED_AT = Date.parse(AT) / 1000 - 2;

const record = (fields: Partial<DnsRecord>): DnsRecord => ({
  id: '7d0f8a52-1d5e-4f7b-9a53-3c1c8f0a1b11',
  zoneName: 'example.com',
  name: 'www',
  type: 'A',
  class: 'IN',
  ttl: 300,
  rdata: '192.0.2.1',
  metadata: null,
  createdAt: AT,
  updatedAt: AT,
  ...fields,
});

/** An entry as the service writes it for a signed update of www's address. */
async function signedUpdate(): Promise<HistoryEntry> {
  const primaryType = 'UpdateTypedDnsRecordEnvelope';
  const before = record({});
  const after = record({ rdata: '192.0.2.2' });
  const envelope = buildEnvelope(primaryType, { id: before.id, zoneName: 'example.com', name: 'www', type: 'A', rdata: '192.0.2.2', ttl: 300 }, { timestamp: SIGNED_AT });
  const typed = envelopeTypedData(DOMAIN, TYPE_REGISTRY, primaryType, envelope);
  const signature = await key.signTypedData(typed as never);
  return {
    id: '1',
    zoneName: 'example.com',
    serial: 2,
    at: AT,
    operation: 'updateDnsRecord',
    actor: { wallet: key.address.toLowerCase(), account: null, via: 'eip712' },
    changes: [{ op: 'update', before, after }],
    signed: { domain: DOMAIN, primaryType, types: typesReachableFrom(TYPE_REGISTRY, primaryType), envelope, signature, signer: key.address },
  };
}

describe('verifyHistoryEntry', () => {
  it('recomputes the hash and recovers the signer of an entry as written', async () => {
    const result = await verifyHistoryEntry(await signedUpdate());
    expect(result).toMatchObject({ status: 'valid', signer: key.address.toLowerCase(), account: null });
    expect(result.status === 'valid' && result.checked).toContain('the changes are what the signed payload asks for');
  });

  it('fails an entry whose envelope was edited: the signature no longer recovers to the signer', async () => {
    const entry = await signedUpdate();
    (entry.signed!.envelope.payload as Record<string, unknown>).rdata = '198.51.100.7';
    const result = await verifyHistoryEntry(entry);
    expect(result.status).toBe('invalid');
    expect(result.status === 'invalid' && result.problems.join('\n')).toMatch(/data 192\.0\.2\.2 was written, 198\.51\.100\.7 was signed/);
    // Edited in the envelope and in the changes alike: the records agree, but the signature does not.
    entry.changes[0].after = record({ rdata: '198.51.100.7' });
    const again = await verifyHistoryEntry(entry);
    expect(again.status).not.toBe('valid');
    expect(again.status === 'needs-erc1271' && again.checked.join('\n')).toMatch(/recovers to 0x[0-9a-f]{40}, not 0x/);
    const asked = await verifyHistoryEntry(entry, async () => false);
    expect(asked.status === 'invalid' && asked.problems[0]).toMatch(/recovers to 0x[0-9a-f]{40}, not the signer/);
  });

  it('fails an entry whose changes were edited, naming the field', async () => {
    const entry = await signedUpdate();
    entry.changes[0].after = record({ rdata: '192.0.2.2', ttl: 60 });
    const result = await verifyHistoryEntry(entry);
    expect(result).toMatchObject({ status: 'invalid', problems: ['changes do not match the signed payload: the updated record: TTL 60 was written, 300 was signed'] });
  });

  it('fails an entry moved to another zone or another time', async () => {
    const moved = await signedUpdate();
    moved.zoneName = 'example.org';
    expect(await verifyHistoryEntry(moved)).toMatchObject({ status: 'invalid', problems: ['changes do not match the signed payload: the signature is for example.com, the entry is of example.org'] });
    const late = await signedUpdate();
    late.at = '2026-11-26T10:00:00.000Z';
    const result = await verifyHistoryEntry(late);
    expect(result.status === 'invalid' && result.problems.join()).toMatch(/outside the window/);
  });

  it('fails an entry whose author was edited, naming the signer', async () => {
    const other = '0x00000000000000000000000000000000000000bb';
    const edited = await signedUpdate();
    edited.actor = { ...edited.actor, wallet: other };
    const result = await verifyHistoryEntry(edited);
    expect(result).toMatchObject({ status: 'invalid', problems: [`the entry names ${other} as its author, but ${key.address.toLowerCase()} signed it`] });
    // Claimed for an account while the recorded key is someone else's: the same.
    const delegated = await signedUpdate();
    delegated.actor = { wallet: other, account: '0x00000000000000000000000000000000000000aa', via: 'eip712' };
    expect(await verifyHistoryEntry(delegated, async () => true)).toMatchObject({ status: 'invalid', problems: [`the entry names ${other} as its author, but ${key.address.toLowerCase()} signed it`] });
    const relabelled = await signedUpdate();
    relabelled.actor = { ...relabelled.actor, via: 'api-key' };
    expect(await verifyHistoryEntry(relabelled)).toMatchObject({ status: 'invalid', problems: ['the entry says it was made by api-key, but it carries an EIP-712 signature'] });
  });

  it('leaves a contract account to the chain, passing it the hash', async () => {
    const entry = await signedUpdate();
    entry.actor = { wallet: key.address.toLowerCase(), account: '0x00000000000000000000000000000000000000aa', via: 'eip712' };
    const offline = await verifyHistoryEntry(entry);
    expect(offline).toMatchObject({ status: 'needs-erc1271', account: '0x00000000000000000000000000000000000000aa' });
    const seen: string[] = [];
    const online = await verifyHistoryEntry(entry, async ({ account, hash }) => (seen.push(`${account} ${hash}`), true));
    expect(online).toMatchObject({ status: 'valid', account: '0x00000000000000000000000000000000000000aa' });
    expect(seen).toEqual([`0x00000000000000000000000000000000000000aa ${offline.status === 'needs-erc1271' ? offline.hash : ''}`]);
  });

  it('says an unsigned entry has nothing to verify', async () => {
    const entry = await signedUpdate();
    delete entry.signed;
    expect(await verifyHistoryEntry(entry)).toEqual({ status: 'unsigned' });
  });
});
