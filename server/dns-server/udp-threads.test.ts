import { createSocket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../test/support/ports.ts';
import { packetCache, withId, type CachedAnswer } from './packet-cache.ts';
import type { Tally } from './query-counts.ts';
import { startUdpThreads } from './udp-threads.ts';

/** One question over UDP from a fresh socket: the answer's A record, or null when none came within 1 s. */
async function ask(host: string, port: number, name: string): Promise<string | null> {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  try {
    const answer = new Promise<Buffer | null>((done) => {
      socket.once('message', done);
      setTimeout(() => done(null), 1000).unref();
    });
    socket.send(dnsPacket.encode({ id: 7, type: 'query', questions: [{ name, type: 'A' }] }), port, host);
    const got = await answer;
    if (!got) return null;
    const packet = dnsPacket.decode(got);
    expect(packet.id).toBe(7);
    return String((packet.answers?.[0] as { data?: string } | undefined)?.data ?? '');
  } finally {
    socket.close();
  }
}

// Both ways a thread reads (batched through recvmmsg/sendmmsg, and Node's handle), over IPv4 and IPv6: misses
// answered by the main thread, hits by the threads, a drop obeyed at once, and a close that does not wait for poll.
describe.each([
  { batched: true, host: '127.0.0.1' },
  { batched: true, host: '::1' },
  { batched: false, host: '127.0.0.1' },
])('UDP threads (batched: $batched, $host)', ({ batched, host }) => {
  it('answers misses from the main thread and hits from the threads, never a dropped answer, and closes at once', async () => {
    const cache = packetCache<Tally | null>();
    let address = '192.0.2.1';
    let resolved = 0;
    const counts: number[] = [];
    const port = await freePort();
    const threads = await startUdpThreads({
      host,
      port,
      threads: 2,
      rrlPerSecond: 0,
      batched,
      cache,
      count: (_tally, n) => counts.push(n),
      cookieMaster: null,
      send: (entry, query) => ({ bytes: withId(entry.udp, query), proven: false }),
      answer: async (query) => {
        const kept = cache.lookup(query);
        if (kept) return { entry: kept, hit: true, key: query };
        resolved += 1;
        const question = dnsPacket.decode(query).questions ?? [];
        const udp = dnsPacket.encode({ id: 0, type: 'response', flags: dnsPacket.AUTHORITATIVE_ANSWER, questions: question, answers: [{ name: question[0].name, type: 'A', ttl: 60, data: address }] });
        const entry: CachedAnswer<Tally | null> = { full: udp, udp, zone: 'example.com', meta: { zone: 'example.com', name: '@', type: 'A', rcode: 'NOERROR', dnssecOk: false } };
        cache.set(query, entry, cache.begin());
        return { entry, hit: false, key: query };
      },
    });
    expect(threads?.batched).toBe(batched);
    try {
      expect(await ask(host, port, 'example.com')).toBe('192.0.2.1');
      for (let i = 0; i < 20; i += 1) expect(await ask(host, port, 'example.com')).toBe('192.0.2.1');
      expect(resolved).toBe(1);
      address = '192.0.2.2';
      cache.drop('example.com');
      expect(await ask(host, port, 'example.com')).toBe('192.0.2.2');
      expect(resolved).toBe(2);
    } finally {
      const started = Date.now();
      await threads?.close();
      // Woken by a datagram to itself, a thread leaves poll at once, not at its 200 ms timeout.
      expect(Date.now() - started).toBeLessThan(150);
    }
    // Every query counted once: 20 hits by the threads (sent before they detach), 2 misses by the main thread.
    expect(counts.reduce((a, b) => a + b, 0)).toBe(22);
  });
});

// The same guarantee over random changes of zones above, below and beside each other: after each drop, every name
// is asked over UDP (hits answered by the threads from the shared table, misses by the main thread) and must come
// back with its zone's address of now. ~25 runs of up to 8 changes, a few hundred datagrams: about a second.
describe('UDP threads and random changes', () => {
  it('never answers an address a change replaced, whichever zone above, below or beside it changed', async () => {
    const zones = ['a.com', 'sub.a.com', 'b.com'];
    const address = new Map(zones.map((zone) => [zone, 1]));
    const cache = packetCache<Tally | null>();
    const port = await freePort();
    const zoneOf = (name: string) => zones.find((zone) => name === zone) as string;
    const threads = await startUdpThreads({
      host: '127.0.0.1',
      port,
      threads: 2,
      rrlPerSecond: 0,
      cache,
      count: () => {},
      cookieMaster: null,
      send: (entry, query) => ({ bytes: withId(entry.udp, query), proven: false }),
      answer: async (query) => {
        const kept = cache.lookup(query);
        if (kept) return { entry: kept, hit: true, key: query };
        const token = cache.begin();
        const question = dnsPacket.decode(query).questions ?? [];
        const zone = zoneOf(question[0].name);
        const udp = dnsPacket.encode({ id: 0, type: 'response', flags: dnsPacket.AUTHORITATIVE_ANSWER, questions: question, answers: [{ name: zone, type: 'A', ttl: 60, data: `192.0.2.${address.get(zone)}` }] });
        const entry: CachedAnswer<Tally | null> = { full: udp, udp, zone };
        cache.set(query, entry, token);
        return { entry, hit: false, key: query };
      },
    });
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...zones), { minLength: 1, maxLength: 8 }), async (changes) => {
          for (const changed of changes) {
            for (const zone of zones) expect(await ask('127.0.0.1', port, zone)).toBe(`192.0.2.${address.get(zone)}`);
            address.set(changed, ((address.get(changed) as number) % 250) + 1);
            cache.drop(changed);
          }
          for (const zone of zones) expect(await ask('127.0.0.1', port, zone), zone).toBe(`192.0.2.${address.get(zone)}`);
        }),
        { numRuns: 25 },
      );
    } finally {
      await threads?.close();
    }
  });
});

// Back-pressure: a flood of misses (each a name no cache holds) while the main thread is slow to resolve them. The
// threads hand it no more than the bound at once and drop the rest themselves (counted), and keep answering what
// the table holds meanwhile, at once.
describe('UDP threads under a flood of misses', () => {
  it.each([true, false])('hand the main thread at most the bound of misses, drop and count the rest, and keep answering hits (batched: %s)', async (batched) => {
    const BOUND = 8;
    const cache = packetCache<Tally | null>();
    const port = await freePort();
    const held: Array<() => void> = [];
    let holding = true;
    let resolving = 0;
    let mostAtOnce = 0;
    const answerTo = (query: Buffer) => {
      const question = dnsPacket.decode(query).questions ?? [];
      const udp = dnsPacket.encode({ id: 0, type: 'response', flags: dnsPacket.AUTHORITATIVE_ANSWER, questions: question, answers: [{ name: question[0].name, type: 'A', ttl: 60, data: '192.0.2.9' }] });
      const entry: CachedAnswer<Tally | null> = { full: udp, udp, zone: 'example.com' };
      cache.set(query, entry, cache.begin());
      return { entry, hit: false, key: query };
    };
    const threads = await startUdpThreads({
      host: '127.0.0.1',
      port,
      threads: 2,
      rrlPerSecond: 0,
      batched,
      cache,
      missesInFlight: BOUND,
      count: () => {},
      cookieMaster: null,
      send: (entry, query) => ({ bytes: withId(entry.udp, query), proven: false }),
      answer: async (query) => {
        const kept = cache.lookup(query);
        if (kept) return { entry: kept, hit: true, key: query };
        // The cached zone resolves at once; the flood's names wait until released (a slow, cold zone).
        if (!holding || dnsPacket.decode(query).questions?.[0].name === 'cached.example.com') return answerTo(query);
        resolving += 1;
        mostAtOnce = Math.max(mostAtOnce, resolving);
        await new Promise<void>((release) => held.push(release));
        resolving -= 1;
        return answerTo(query);
      },
    });
    const flood = createSocket('udp4');
    try {
      expect(await ask('127.0.0.1', port, 'cached.example.com')).toBe('192.0.2.9');
      for (let i = 0; i < 100; i += 1) flood.send(dnsPacket.encode({ id: i, type: 'query', questions: [{ name: `r${i}.example.com`, type: 'A' }] }), port, '127.0.0.1');
      // The flood is held on the main thread: the cached name is still answered by the threads.
      for (let i = 0; i < 10; i += 1) expect(await ask('127.0.0.1', port, 'cached.example.com')).toBe('192.0.2.9');
      await expect.poll(() => threads?.misses()).toMatchObject({ bound: BOUND, inFlight: BOUND, peak: BOUND, dropped: 100 - BOUND });
      expect(mostAtOnce).toBe(BOUND);
      // Released, the main thread takes misses again.
      holding = false;
      for (const release of held.splice(0)) release();
      await expect.poll(() => threads?.misses().inFlight).toBe(0);
      expect(await ask('127.0.0.1', port, 'r0.example.com')).toBe('192.0.2.9');
      expect(await ask('127.0.0.1', port, 'new.example.com')).toBe('192.0.2.9');
    } finally {
      for (const release of held.splice(0)) release();
      flood.close();
      await threads?.close();
    }
  });
});
