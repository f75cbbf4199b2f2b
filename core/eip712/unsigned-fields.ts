import type { TypeRegistry } from '../wire/eip712.ts';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The paths of payload fields that `struct` does not sign, at any depth (`nftReceivingWallet`,
 * `records.2.type`, `nftReceivingWallet.note`), in payload order. The walk follows the struct, not the payload,
 * so its depth is the registry's, however deep the JSON: a field the struct lacks is reported, never entered.
 * `allowed` names top-level fields taken unsigned on purpose (see UNSIGNED_BUT_ACCEPTED).
 */
export function unsignedFields(types: TypeRegistry, struct: string, payload: unknown, allowed: readonly string[] = []): string[] {
  const found: string[] = [];
  const walk = (structName: string, value: unknown, prefix: string, allow: readonly string[]) => {
    if (!isPlainObject(value)) return;
    const fields = new Map((types[structName] ?? []).map((field) => [field.name, field.type]));
    for (const key of Object.keys(value)) {
      const type = fields.get(key);
      const path = prefix + key;
      if (type === undefined) {
        if (!allow.includes(key)) found.push(path);
        continue;
      }
      const inner = type.replace(/\[\d*\]$/, '');
      if (!Object.hasOwn(types, inner)) continue;
      const item = value[key];
      if (inner === type) walk(inner, item, `${path}.`, []);
      else if (Array.isArray(item)) item.forEach((element, i) => walk(inner, element, `${path}.${i}.`, []));
    }
  };
  walk(struct, payload, '', allowed);
  return found;
}
