import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindToolsMissing, dig } from '../../test/support/bind.ts';
import { addressOf, TEST_KEYS } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';

if (bindToolsMissing()) throw new Error(bindToolsMissing() as string);

const CATALOG = 'catalog.namefi.test';
let service: TestService;
let port: number;

beforeAll(async () => {
  service = await startTestService({ DNS_PORT: '0' });
  port = service.dns?.port as number;
});
afterAll(() => service.destroy());

const mint = (name: string) => service.services.ownership.mint({ name, to: addressOf(TEST_KEYS[0]), chainId: 31337, years: 1, now: new Date() });
/** The lines of a transfer's answer as "owner type rdata", and its SOA serials in order. */
async function transfer(type: string) {
  const lines = (await dig(port, ['+nocookie', CATALOG, type])).split('\n').filter((l) => l && !l.startsWith(';')).map((l) => l.split(/\s+/));
  return { ptrs: lines.filter((f) => f[3] === 'PTR').map((f) => f[4]), serials: lines.filter((f) => f[3] === 'SOA').map((f) => Number(f[6])) };
}

describe('the catalog zone', () => {
  it("answers an IXFR with the lines of the zones added since the secondary's serial, not the whole catalog", async () => {
    for (const name of ['cat-a.com', 'cat-b.com', 'cat-c.com']) await mint(name);
    const before = await transfer('AXFR');
    const serial = before.serials[0];
    expect(before.ptrs).toEqual(expect.arrayContaining(['cat-a.com.', 'cat-b.com.', 'cat-c.com.']));
    await mint('cat-d.com');
    await mint('cat-e.com');
    await service.services.db.query("DELETE FROM domains WHERE name = 'cat-b.com'");
    const ixfr = await transfer(`IXFR=${serial}`);
    // Current SOA, then per change: the SOA before, the line deleted (if any), the SOA after, the line added (if any).
    expect(ixfr.serials).toEqual([serial + 3, serial, serial + 1, serial + 1, serial + 2, serial + 2, serial + 3, serial + 3]);
    expect(ixfr.ptrs).toEqual(['cat-d.com.', 'cat-e.com.', 'cat-b.com.']);
    expect((await transfer(`IXFR=${serial + 3}`)).serials).toEqual([serial + 3]);
    const after = await transfer('AXFR');
    expect(after.serials[0]).toBe(serial + 3);
    expect(after.ptrs).toEqual(expect.arrayContaining(['cat-a.com.', 'cat-c.com.', 'cat-d.com.', 'cat-e.com.']));
    expect(after.ptrs).not.toContain('cat-b.com.');
    // A serial the journal does not cover (ahead of it here): the SOA alone says it is current, as for any zone.
    expect((await transfer(`IXFR=${serial + 10}`)).serials).toEqual([serial + 3]);
  });
});
