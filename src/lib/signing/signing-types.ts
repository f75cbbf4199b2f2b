import type { TypeRegistry, TypesForMethod } from '@/core/wire/eip712.ts';

/** EIP-712 atomic and dynamic types: everything else a field names is a struct the registry must hold. */
const ELEMENTARY = /^(string|bytes|bool|address|u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?|bytes([1-9]|[12][0-9]|3[0-2]))$/;

/**
 * What `/eip712/types-for-method` would answer for `method`, worked out from the service's full registry
 * (`/eip712/types`, fetched once) and the contract's table of accepted primary types, so a session asks
 * for its structs once instead of once per operation. The structs are the service's, never our own.
 *
 * Undefined when this cannot be answered faithfully: the operation is not in the table, or the registry
 * lacks one of its primary types or a struct they reference (a service that signs differently, such as
 * production's registerWithRecords). The caller then asks `types-for-method`, whose `found: false`
 * sends it to the API key or SIWE token as the contract says.
 */
export function typesFromRegistry(
  registry: TypeRegistry,
  accepted: Record<string, readonly string[]>,
  method: string,
): TypesForMethod | undefined {
  const primaryTypes = Object.hasOwn(accepted, method) ? accepted[method] : undefined;
  if (!primaryTypes || primaryTypes.length === 0) return undefined;
  const types: TypeRegistry = {};
  const visit = (name: string): boolean => {
    if (Object.hasOwn(types, name)) return true;
    if (!Object.hasOwn(registry, name)) return false;
    types[name] = registry[name];
    return registry[name].every((field) => {
      const base = field.type.replace(/(\[\d*\])+$/, '');
      return ELEMENTARY.test(base) || visit(base);
    });
  };
  for (const primaryType of primaryTypes) if (!visit(primaryType)) return undefined;
  return { found: true, acceptedPrimaryTypes: [...primaryTypes], types };
}
