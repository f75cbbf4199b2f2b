import { isAddress } from 'viem';
import type { TypeRegistry } from '../wire/eip712.ts';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const INTEGER_TYPE = /^(u?)int(\d*)$/;
const WHOLE_NUMBER_TEXT = /^-?\d+$/;

/** The smallest and largest value an EIP-712 integer type holds: `uint` and `int` alone are 256 bits wide. */
function integerRange(type: string): { min: bigint; max: bigint } | undefined {
  const match = INTEGER_TYPE.exec(type);
  if (!match) return undefined;
  const bits = BigInt(match[2] === '' ? 256 : Number(match[2]));
  return match[1] === 'u' ? { min: 0n, max: (1n << bits) - 1n } : { min: -(1n << (bits - 1n)), max: (1n << (bits - 1n)) - 1n };
}

export function isIntegerType(type: string): boolean {
  return integerRange(type) !== undefined;
}

/**
 * Why `value` cannot be signed as the integer type `type` (a number or a string of digits within its range), or
 * null when it can. Nothing is rounded or clamped: a value the type cannot hold is refused, never signed as another.
 */
export function integerProblem(type: string, value: unknown): string | null {
  const range = integerRange(type);
  if (!range) return null;
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'must be a finite number';
    if (!Number.isInteger(value)) return 'must be a whole number';
    n = BigInt(value);
  } else if (typeof value === 'string') {
    if (!WHOLE_NUMBER_TEXT.test(value)) return /^-?\d*\.\d+$/.test(value) ? 'must be a whole number' : 'must be a number (digits only)';
    n = BigInt(value);
  } else return 'must be a number';
  if (n < range.min) return range.min === 0n ? 'cannot be negative' : `is below the smallest ${type} (${range.min})`;
  if (n > range.max) return `is above the largest ${type} (${range.max === (1n << 256n) - 1n ? '2^256-1' : range.max})`;
  return null;
}

/** An integer value known to pass integerProblem, as the bigint it signs as. */
export function toInteger(value: unknown): bigint {
  return typeof value === 'bigint' ? value : BigInt(value as number | string);
}

/** Why `value` cannot be signed as the atomic type `type`, or null. A field's JSON type is the signed one. */
function atomicProblem(type: string, value: unknown): string | null {
  if (isIntegerType(type)) return integerProblem(type, value);
  if (type === 'bool') return typeof value === 'boolean' ? null : 'must be true or false';
  if (type === 'string') return typeof value === 'string' ? null : 'must be text';
  // viem refuses to hash an address that is not 20 bytes of hex, or whose mixed case is not its checksum.
  if (type === 'address') return typeof value === 'string' && isAddress(value) ? null : 'must be an address: 0x and 40 hex digits (mixed case only as its checksum)';
  return null;
}

export interface SignedValueProblems {
  /** Paths of struct fields the payload lacks (`ttl`, `records.1.name`, `nftReceivingWallet.chainId`). */
  missing: string[];
  /** Paths of fields whose value the signed type cannot hold, with why. */
  invalid: Array<{ path: string; message: string }>;
}

/**
 * One walk of `payload` along `struct`: every field the struct signs must be present (an absent field and an empty
 * one would sign alike) and hold a value of its type. The walk follows the struct, so its depth is the registry's,
 * whatever the JSON; fields the struct lacks are unsignedFields' concern.
 */
export function signedValueProblems(types: TypeRegistry, struct: string, payload: unknown): SignedValueProblems {
  const problems: SignedValueProblems = { missing: [], invalid: [] };
  const visit = (type: string, value: unknown, path: string) => {
    const list = /^(.*)\[\d*\]$/.exec(type);
    if (list) {
      if (!Array.isArray(value)) return void problems.invalid.push({ path, message: 'must be a list' });
      value.forEach((item, i) => visit(list[1], item, `${path}.${i}`));
      return;
    }
    if (Object.hasOwn(types, type)) return walkStruct(type, value, path);
    const message = atomicProblem(type, value);
    if (message) problems.invalid.push({ path, message });
  };
  const walkStruct = (name: string, value: unknown, path: string) => {
    if (!isPlainObject(value)) return void problems.invalid.push({ path, message: 'must be an object' });
    const prefix = path === '' ? '' : `${path}.`;
    for (const field of types[name] ?? []) {
      const fieldPath = prefix + field.name;
      if (!Object.hasOwn(value, field.name) || value[field.name] === undefined) problems.missing.push(fieldPath);
      else visit(field.type, value[field.name], fieldPath);
    }
  };
  walkStruct(struct, payload, '');
  return problems;
}

/** Thrown when a payload cannot be signed as its struct: nothing is ever filled in or rounded to make it fit. */
export class UnsignableValuesError extends Error {
  constructor(readonly problems: SignedValueProblems) {
    const described = [...problems.missing.map((path) => `${path} is missing`), ...problems.invalid.map((p) => `${p.path} ${p.message}`)];
    super(`The payload cannot be signed as it stands: ${described.join('; ')}`);
  }
}
