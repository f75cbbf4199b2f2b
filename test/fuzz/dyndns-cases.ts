import fc from 'fast-check';
import { changedTables, digest } from './database-digest.ts';
import type { World } from './operation-cases.ts';

/**
 * DynDNS2 (`/nic/update`) fed hostile requests: credentials missing, malformed or half right, hostnames of any text
 * (names of the zone, of other zones, not names at all, too many), `myip` of any text (addresses, networks, names,
 * two of a family). Properties: never a 5xx nor `911`; text/plain; `badauth` exactly when 401; every line one of the
 * protocol's answers; and a request answered without `good` changes nothing.
 */

export interface DynDnsCase {
  authorization: { kind: 'none' } | { kind: 'raw'; value: string } | { kind: 'basic'; user: 'key-id' | string; password: 'key' | string };
  hostname: string | null;
  myip: string | null;
}

const ANSWER = /^(?:(?:good|nochg) [0-9a-f.:]+(?:,[0-9a-f.:]+)?|nohost|notfqdn|numhost|badauth|badagent|abuse|dnserr)$/;

const text = fc.string({ unit: fc.integer({ min: 0, max: 0x2fff }).map((c) => String.fromCharCode(c)), maxLength: 40 });

function hostnames(zone: string): fc.Arbitrary<string | null> {
  const label = fc.oneof(fc.constantFrom('home', 'www', '*', '_acme-challenge', 'a'.repeat(64), 'xn--tda', 'UPPER', '-x', ''), fc.stringMatching(/^[a-z0-9-]{1,12}$/));
  const name = fc.oneof(
    fc.tuple(label, fc.constantFrom(zone, zone, zone, `${zone}.`, 'other-zone.com', 'com', '')).map(([l, z]) => (z ? `${l}.${z}` : l)),
    fc.constant(zone),
    text,
  );
  // Mostly lists of names, so that the cases past authentication reach the zone.
  return fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: fc.array(name, { minLength: 1, maxLength: 25 }).map((names) => names.join(',')), weight: 6 }, { arbitrary: text, weight: 1 });
}

const myip = fc.oneof(
  fc.constant(null),
  fc.constant(''),
  fc.ipV4(),
  fc.ipV6(),
  fc.tuple(fc.ipV4(), fc.ipV6()).map(([a, b]) => `${a},${b}`),
  fc.tuple(fc.ipV4(), fc.ipV4()).map(([a, b]) => `${a},${b}`),
  fc.constantFrom('192.0.2.1/24', '::ffff:192.0.2.1', 'fe80::1%eth0', '1.2.3.4.5', '01.2.3.4', 'example.com', ' 192.0.2.1 ', '2001:db8::1,', ',,'),
  text,
);

export function dynDnsCaseArbitrary(zone: string): fc.Arbitrary<DynDnsCase> {
  // Half the cases carry the world's key itself, so that the hostnames and addresses are what is tried.
  const authorization: fc.Arbitrary<DynDnsCase['authorization']> = fc.oneof(
    { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
    { arbitrary: text.map((value) => ({ kind: 'raw' as const, value: value.replace(/[^\x20-\x7e]/g, '') })), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('basic' as const), user: fc.oneof(fc.constant('key-id'), text), password: fc.oneof(fc.constant('key'), text) }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'basic' as const, user: 'key-id', password: 'key' }), weight: 3 },
  );
  return fc.record({ authorization, hostname: hostnames(zone), myip });
}

export const describeDynDnsCase = (c: DynDnsCase) => JSON.stringify(c);

function authorizationOf(world: World, c: DynDnsCase): string | null {
  const a = c.authorization;
  if (a.kind === 'none') return null;
  if (a.kind === 'raw') return a.value;
  const user = a.user === 'key-id' ? world.keyId : a.user;
  const password = a.password === 'key' ? world.apiKey : a.password;
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** Sends one case and answers what is wrong with the reply, or null. */
export async function runDynDnsCase(world: World, c: DynDnsCase, answered: (answer: string) => void = () => undefined): Promise<string | null> {
  const url = new URL('/nic/update', world.service.origin);
  if (c.hostname !== null) url.searchParams.set('hostname', c.hostname);
  if (c.myip !== null) url.searchParams.set('myip', c.myip);
  const authorization = authorizationOf(world, c);
  const db = world.service.services.db;
  const before = await digest(db, world.digestSql);
  let response: Response;
  try {
    response = await fetch(url, { headers: authorization === null ? {} : { authorization } });
  } catch (error) {
    return `request failed: ${(error as Error).message}`;
  }
  const body = await response.text();
  const lines = body.replace(/\n$/, '').split('\n');
  answered(`${response.status} ${lines[0]?.split(' ')[0] ?? ''}`);
  if (response.status >= 500) return `${response.status}: ${body.slice(0, 200)}`;
  if (!response.headers.get('content-type')?.startsWith('text/plain')) return `${response.status} with content-type ${response.headers.get('content-type')}`;
  if ((response.status === 401) !== (body === 'badauth\n')) return `${response.status} answering ${JSON.stringify(body.slice(0, 100))}`;
  const odd = lines.find((line) => !ANSWER.test(line));
  if (odd !== undefined) return `a line that is not the protocol's: ${JSON.stringify(odd.slice(0, 100))}`;
  if (!lines.some((line) => line.startsWith('good '))) {
    // A refused or unchanged request writes nothing (the key's use is recorded at authentication, as for any key).
    const changed = changedTables(before, await digest(db, world.digestSql));
    if (changed.length > 0) return `answered ${JSON.stringify(body.slice(0, 60))} yet changed ${changed.join(', ')}`;
  }
  return null;
}
