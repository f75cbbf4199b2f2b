/** IPv4 and IPv6 text forms: strict parsing and the canonical IPv6 text of RFC 5952. */

const IPV4_PART = /^(0|[1-9][0-9]{0,2})$/;

export function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const octets = parts.map((part) => (IPV4_PART.test(part) ? Number(part) : NaN));
  return octets.every((n) => n >= 0 && n <= 255) ? octets : null;
}

export function isIpv4(text: string): boolean {
  return parseIpv4(text) !== null;
}

/** Parses an IPv6 address (compressed and IPv4-embedded forms) into eight 16-bit groups. */
export function parseIpv6(text: string): number[] | null {
  const input = text.toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(input)) return null;
  const halves = input.split('::');
  if (halves.length > 2) return null;
  const parseSide = (side: string): number[] | null => {
    if (side === '') return [];
    const parts = side.split(':');
    const groups: number[] = [];
    for (let i = 0; i < parts.length; i += 1) {
      const part = parts[i];
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseIpv4(part);
        if (!v4) return null;
        groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-f]{1,4}$/.test(part)) {
        groups.push(parseInt(part, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = parseSide(halves[0]);
  if (!head) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  if (halves[0].includes('.')) return null;
  const tail = parseSide(halves[1]);
  if (!tail || head.length + tail.length > 7) return null;
  return [...head, ...Array.from({ length: 8 - head.length - tail.length }, () => 0), ...tail];
}

/** RFC 5952 text: lowercase, no leading zeros, the longest run (2+) of zero groups as `::`, the first on a tie. */
function formatIpv6(groups: number[]): string {
  const isV4Mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (isV4Mapped) return `::ffff:${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

export function canonicalIpv6(text: string): string | null {
  const groups = parseIpv6(text);
  return groups ? formatIpv6(groups) : null;
}
