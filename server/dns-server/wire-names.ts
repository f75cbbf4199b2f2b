import { plainName } from '#core/dns/names.ts';

/**
 * Domain names in DNS wire messages (RFC 1035 §3.1, §4.1.4), for the parts of the server that read a message byte by
 * byte rather than through dns-packet: TSIG (whose MAC covers the bytes as sent) and UPDATE (whose sections hold
 * records with empty data, which dns-packet cannot read).
 */

/** A name in wire form, uncompressed, lowercase. */
export function nameWire(name: string): Buffer {
  const labels = plainName(name).split('.').filter(Boolean);
  const out = Buffer.alloc(labels.reduce((n, l) => n + 1 + l.length, 1));
  let at = 0;
  for (const label of labels) {
    out[at] = label.length;
    at += 1 + out.write(label, at + 1, 'latin1');
  }
  return out;
}

/** Reads a (possibly compressed) name at `offset`: the name (lowercase, no final dot) and where the field ends. Throws on bytes that are no name. */
export function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let end = -1;
  let length = 0;
  for (let at = offset, hops = 0; ; ) {
    if (at >= message.length || hops > 64) throw new Error('bad name');
    const size = message[at];
    if (size === 0) {
      if (end < 0) end = at + 1;
      break;
    }
    if ((size & 0xc0) === 0xc0) {
      if (at + 1 >= message.length) throw new Error('bad name');
      if (end < 0) end = at + 2;
      at = ((size & 0x3f) << 8) | message[at + 1];
      hops += 1;
      continue;
    }
    if ((size & 0xc0) !== 0 || at + 1 + size > message.length) throw new Error('bad name');
    length += size + 1;
    if (length > 255) throw new Error('name too long');
    labels.push(message.toString('latin1', at + 1, at + 1 + size));
    at += 1 + size;
  }
  return { name: labels.join('.').toLowerCase(), end };
}
