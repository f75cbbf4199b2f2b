import { describe, expect, it } from 'vitest';
import { addCreate, addDelete, EMPTY_DRAFT, planBatches } from './change-set.ts';
import { batchInWords, capLines, contentInWords } from './describe.ts';
import type { DnsRecord } from '#core/wire/dns.ts';

const at = '2026-01-01T00:00:00.000Z';
const zone: DnsRecord[] = [{ id: '1', zoneName: 'example.com', name: 'www', type: 'A', class: 'IN', ttl: 300, rdata: '192.0.2.1', metadata: null, createdAt: at, updatedAt: at }];

describe('what will be signed, in words', () => {
  it('names each batch and its records with full names', () => {
    let draft = addDelete(EMPTY_DRAFT, '1');
    draft = addCreate(draft, { name: 'www', type: 'CNAME', rdata: 'host.example.net.', ttl: 300 });
    const [del, create] = planBatches(draft, zone, 'example.com').batches;
    expect(batchInWords(del, 'example.com', () => 'A www.example.com → 192.0.2.1')).toEqual(['Delete 1 record from example.com:', '− A www.example.com → 192.0.2.1']);
    expect(batchInWords(create, 'example.com', String)).toEqual(['Add 1 record to example.com:', '+ CNAME www.example.com → host.example.net.']);
  });

  it('shows TXT as its text and cuts long lists', () => {
    expect(contentInWords('TXT', '"v=spf1 " "-all"')).toBe('v=spf1 -all');
    expect(contentInWords('TXT', '"say \\"hi\\""')).toBe('say "hi"');
    expect(capLines(['a', 'b', 'c', 'd'], 3, 'more in signature 2')).toEqual(['a', 'b', '… and 2 more in signature 2']);
  });
});
