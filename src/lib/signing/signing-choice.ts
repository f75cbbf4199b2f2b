/** `records.0.type`, `records.1.type` → `records[].type`: one name per field for a notice. */
export function fieldNames(paths: string[]): string[] {
  return [...new Set(paths.map((p) => p.replace(/\.\d+(?=\.|$)/g, '[]')))];
}

/** The notice line for a write whose record type goes unsigned under the seed's structs. */
export function unsignedTypeNotice(recordTypes: string[]): string {
  const named = [...new Set(recordTypes)].join(', ');
  return `This service does not sign the record type${named ? ` (${named})` : ''}: whoever relays the request could change it. The rest is signed.`;
}
