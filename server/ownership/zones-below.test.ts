import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Queryable } from '../db/database.ts';
import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.ts';
import { migrate } from '../db/migrate.ts';
import { databaseOwnership } from './database-ownership.ts';
import type { Ownership } from './ownership.ts';

/**
 * Whether a zone has zones of this service below it is kept on its row (migration 091) and read by the name server
 * for each cold zone: a zone with none below answers every name under it itself. Registrations and releases in any
 * order keep it true to the names held.
 */
describe('a zone knows whether zones lie below it', () => {
  let db: Database;
  let ownership: Ownership;
  const now = new Date('2026-12-07T00:00:00Z');
  const register = (name: string) => ownership.mint({ name, to: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', chainId: 31337, years: 1, now });
  const below = async () => Object.fromEntries((await db.query<{ name: string; has_below: boolean }>('SELECT name, has_below FROM domains ORDER BY name')).map((r) => [r.name, r.has_below]));

  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory://' });
    await migrate(db);
    ownership = databaseOwnership(db);
  });
  afterAll(() => db.close());

  it('follows registrations above and below, and releases', async () => {
    await register('example.com');
    await register('xexample.com');
    expect(await below()).toEqual({ 'example.com': false, 'xexample.com': false });

    await register('a.b.example.com');
    expect(await below(), 'a zone two labels below').toEqual({ 'a.b.example.com': false, 'example.com': true, 'xexample.com': false });

    await register('b.example.com');
    expect(await below(), 'registered between a zone and one below it').toMatchObject({ 'b.example.com': true, 'example.com': true });

    await ownership.release('a.b.example.com');
    expect(await below(), 'released: b has none below, example.com still has b').toEqual({ 'b.example.com': false, 'example.com': true, 'xexample.com': false });

    await ownership.release('b.example.com');
    expect(await below()).toEqual({ 'example.com': false, 'xexample.com': false });
  });

  it('keeps what a rolled-back registration would have changed as it was', async () => {
    await expect(
      db.transaction(async (tx) => {
        await ownership.mint({ name: 'c.example.com', to: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', chainId: 31337, years: 1, now }, tx);
        throw new Error('order failed');
      }),
    ).rejects.toThrow('order failed');
    expect((await below())['example.com']).toBe(false);
  });
});

/** On PostgreSQL two registrations at once, a zone and one below it, each in its own transaction. */
describe('a zone knows whether zones lie below it, registered at once with them (PostgreSQL)', () => {
  let postgres: PostgresServer;
  let db: Database;

  beforeAll(async () => {
    postgres = await startPostgres();
    db = await openDatabase({ dataDir: 'memory://', url: postgres.url });
    await migrate(db);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await postgres?.stop();
  });

  it('marks the zone above whichever transaction commits first', async () => {
    const ownership = databaseOwnership(db);
    const mint = (name: string, q: Queryable) => ownership.mint({ name, to: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', chainId: 31337, years: 1, now: new Date() }, q);
    for (const [first, second] of [['parent-first.com', 'a.parent-first.com'], ['b.child-first.com', 'child-first.com']]) {
      let commitFirst = () => {};
      const held = new Promise<void>((done) => (commitFirst = done));
      let minted = () => {};
      const firstMinted = new Promise<void>((done) => (minted = done));
      const one = db.transaction(async (tx) => {
        await mint(first, tx);
        minted();
        await held;
      });
      await firstMinted;
      const two = db.transaction((tx) => mint(second, tx));
      // The second waits on the first's lock; had it not, it would finish now, before the first commits.
      const early = await Promise.race([two.then(() => 'finished'), new Promise((done) => setTimeout(() => done('waiting'), 300))]);
      commitFirst();
      await Promise.all([one, two]);
      const parent = first.split('.').length < second.split('.').length ? first : second;
      const [row] = await db.query<{ has_below: boolean }>('SELECT has_below FROM domains WHERE name = $1', [parent]);
      expect(row.has_below, `${first} then ${second}`).toBe(true);
      expect(early).toBe('waiting');
    }
  });
});
