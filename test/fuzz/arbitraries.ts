import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Hostile inputs for the no-5xx property, and payloads derived from the operation table's zod schemas:
 * a valid-ish payload per operation, then one field mutated, removed or added.
 */

/** JSON text that JSON.stringify cannot write: spliced into the body as it is. */
export abstract class RawJson {
  abstract toText(): string;
}

/** A nested value too deep to build as a JS object cheaply; serialised as `depth` nested arrays. */
export class Deep extends RawJson {
  constructor(readonly depth: number) {
    super();
  }
  toText(): string {
    return '['.repeat(this.depth) + ']'.repeat(this.depth);
  }
}

/** A JSON number literal as written (`1e400`, `-0`, `300.0`, 2^256 in full): what JSON.stringify would round or refuse. */
class RawNumber extends RawJson {
  constructor(readonly text: string) {
    super();
  }
  toText(): string {
    return this.text;
  }
}

/** JSON text of a value that may hold RawJson markers. */
export function toJsonText(value: unknown): string {
  const raw: RawJson[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raw.push(v);
      return `\u0000raw${raw.length - 1}\u0000`;
    }
    return v;
  });
  if (text === undefined) return 'null';
  return text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_, i: string) => raw[Number(i)].toText());
}

const MEGABYTE_STRING = 'a'.repeat(1_000_000);

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u0003',
  '\u0007\b\t\n\v\f\r',
  '\u001b[31mred',
  '\u007f',
  '\u0085\u009f',
  '\ud800',
  'x\udc00y',
  '\udfff\ud800',
  '\u202eevil',
  'abc\u202dxyz\u2066\u2069',
  '\ufeff',
  '\u200b',
  'ü',
  'ü@mail',
  'münchen',
  'xn--tda',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '%00',
  '../../etc/passwd',
  "'; DROP TABLE dns_records; --",
  '${7*7}',
  '<script>alert(1)</script>',
  '0x',
  '0x' + 'f'.repeat(130),
  '-1',
  '1e100',
  'NaN',
  'a'.repeat(256),
  'a'.repeat(70_000),
  MEGABYTE_STRING,
];

const HOSTILE_NUMBERS = [0, -1, -0.5, 0.5, 1.5, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 + 1, -(2 ** 53) - 1, 1e21, 1e100, 1e308, -1e308, Number.MIN_VALUE];

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

/** Strings: the fixed hostile list, plus random ones over every code unit (lone surrogates included). */
/** The ones that broke the service before: drawn more often than the rest. */
const CRITICAL_STRINGS = ['\u0000', 'a\u0000b', '\u001f', '\ud800', '\u202eevil', 'ü', 'ü@mail', 'münchen', MEGABYTE_STRING];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...CRITICAL_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom('\u0000', '\u001f', '\u202e', '\ud800', 'a', '.', '-', 'ü', ' '), maxLength: 12 }) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
);

const UINT256_MAX = 2n ** 256n - 1n;

/**
 * What a uint/int field (ttl, durationInYears, chainId, the envelope's timestamp) can be sent as that its type
 * cannot hold: negative, fractional, above 2^256−1 or any smaller bound, in exponent form; as numbers, as number
 * literals JSON.stringify would not write, and as numeric strings.
 */
const HOSTILE_NUMERIC_TEXTS = [
  '-1',
  '-0',
  '0.5',
  '-0.5',
  '300.0',
  '300.5',
  '1e3',
  '1E3',
  '3e2',
  '1e400',
  '-1e400',
  '1e-400',
  '1' + '0'.repeat(100),
  String(UINT256_MAX),
  String(UINT256_MAX + 1n),
  String(UINT256_MAX + 2n),
  String(2n ** 512n),
  String(-(2n ** 255n) - 1n),
  '9'.repeat(400),
  String(2 ** 31),
  String(2 ** 53 + 1),
];
const NUMERIC_STRING_ONLY = ['0x12c', '+300', ' 300', '300 ', '0300', '1_000', 'Infinity', '-Infinity', 'NaN', '\uff13\uff10\uff10', ''];

/** A number literal or numeric string a client could send for an integer field; the bug class of issue 24 weighted up. */
export const hostileNumeric: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NUMERIC_TEXTS.filter((text) => /^\d+$/.test(text) && BigInt(text) > UINT256_MAX)) },
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NUMERIC_TEXTS) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NUMERIC_TEXTS).map((text) => new RawNumber(text)) },
  { weight: 1, arbitrary: fc.constantFrom(...NUMERIC_STRING_ONLY) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: UINT256_MAX - 3n, max: UINT256_MAX + 3n }).chain((n) => fc.constantFrom<unknown>(String(n), new RawNumber(String(n)))) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: -999, max: 999 }), fc.constantFrom('e', 'E', 'e+', 'e-'), fc.integer({ min: 0, max: 999 })).map(([m, e, x]) => `${m}${e}${x}`) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Number.isInteger(d) ? d + 0.25 : d)) },
  { weight: 1, arbitrary: hostileNumber },
);

/** An object whose own keys try to reach prototypes. JSON.parse makes `__proto__` an own key, as an attacker's body would. */
const protoObject: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom(...PROTO_KEYS), fc.oneof(fc.constant({ polluted: true }), fc.constant(null), hostileString.filter((s) => s.length < 100)))
  .map(([key, value]) => JSON.parse(`{${JSON.stringify(key)}: ${JSON.stringify(value)}}`) as unknown);

const deep: fc.Arbitrary<Deep> = fc.constantFrom(new Deep(65), new Deep(1_000), new Deep(10_000));

/** Any hostile value for one field: strings, numbers, wrong types, prototype keys, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 2, arbitrary: hostileNumeric },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], ['\u0000']) },
  { weight: 1, arbitrary: protoObject },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

// --- Walking zod 4 schemas --------------------------------------------------------------------------------

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType; entries?: Record<string, string>; values?: unknown[]; options?: z.ZodType[]; in?: z.ZodType };
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** Strips optional/nullable/default/pipe wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else return s;
  }
}

/** A valid-looking value for a field: the context's meaning of the field's name first, else one built from its schema. */
export function sampleOf(schema: z.ZodType, samples: Record<string, unknown>, field = ''): unknown {
  if (field in samples) return structuredClone(samples[field]);
  const s = unwrap(schema);
  const def = defOf(s);
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, inner]) => [key, sampleOf(inner, samples, key)]));
    case 'array':
      return [sampleOf(def.element!, samples, field.replace(/s$/, ''))];
    case 'string':
      return 'sample';
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'union':
      return sampleOf(def.options![0], samples, field);
    default:
      return null;
  }
}

type Path = Array<string | number>;

/** Every field path of a sample value: ['records', 0, 'rdata'] and so on. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [[...prefix, i], ...pathsOf(item, [...prefix, i])]);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [[...prefix, key], ...pathsOf(inner, [...prefix, key])]);
  }
  return [];
}

function valueAt(root: unknown, path: Path): unknown {
  let v = root;
  for (const k of path) v = (v as Record<string | number, unknown>)[k];
  return v;
}

function withAt(root: unknown, path: Path, change: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  change(parent, path[path.length - 1]);
  return copy;
}

export type Mutation = { kind: string; path: string };

/** One change to a valid-ish payload: a field set to a hostile value, removed, or an extra key added. */
export function mutated(base: unknown): fc.Arbitrary<{ payload: unknown; mutation: Mutation }> {
  const paths = pathsOf(base);
  const objectPaths: Path[] = [[], ...paths.filter((p) => {
    const v = valueAt(base, p);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  })];
  const name = (p: Path) => p.join('.') || '(body)';
  type Change = { payload: unknown; mutation: Mutation };
  const options: Array<fc.WeightedArbitrary<Change>> = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<Change>) => options.push({ weight, arbitrary });
  [
    fc.constant({ payload: base, mutation: { kind: 'valid', path: '' } }),
    fc.oneof(hostileValue, fc.constantFrom<unknown>(null, [], 'text', 7)).map((v) => ({ payload: v, mutation: { kind: 'body', path: '(body)' } })),
    fc.tuple(fc.constantFrom(...objectPaths), fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })), hostileValue).map(([p, key, v]) => ({
      payload: withAt(base, [...p, key], (parent, k) => Object.defineProperty(parent, k, { value: v, enumerable: true, configurable: true, writable: true })),
      mutation: { kind: 'extra', path: name([...p, key]) },
    })),
  ].forEach((arbitrary) => add(1, arbitrary));
  // Integer fields get the numbers their type cannot hold more often than any other field gets any value.
  const numberPaths = paths.filter((p) => typeof valueAt(base, p) === 'number');
  if (numberPaths.length > 0) {
    add(
      4,
      fc.tuple(fc.constantFrom(...numberPaths), hostileNumeric).map(([p, v]) => ({
        payload: withAt(base, p, (parent, k) => (parent[k] = v)),
        mutation: { kind: 'number', path: name(p) },
      })),
    );
  }
  if (paths.length > 0) {
    add(
      5,
      fc.tuple(fc.constantFrom(...paths), hostileValue).map(([p, v]) => ({
        payload: withAt(base, p, (parent, k) => (parent[k] = v)),
        mutation: { kind: 'set', path: name(p) },
      })),
    );
    add(
      1,
      fc.constantFrom(...paths).map((p) => ({
        payload: withAt(base, p, (parent, k) => (Array.isArray(parent) ? parent.splice(Number(k), 1) : delete parent[k])),
        mutation: { kind: 'missing', path: name(p) },
      })),
    );
  }
  return fc.oneof(...options);
}
