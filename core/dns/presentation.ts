/**
 * The DNS presentation format (RFC 1035 §5.1) as record data uses it: whitespace-separated tokens,
 * double-quoted strings, and the escapes `\X` and `\DDD` (a byte in decimal).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** One character's UTF-8 bytes: ASCII directly (an encoder call per character was most of reading a zone file). */
function pushUtf8(bytes: number[], ch: string): void {
  const code = ch.charCodeAt(0);
  if (code < 0x80) bytes.push(code);
  else bytes.push(...utf8(ch));
}

export function fromUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export interface Token {
  /** The token as written, quotes and escapes included. */
  raw: string;
  /** The token's bytes with quotes removed and escapes resolved. */
  bytes: Uint8Array;
  /** True when the whole token is one double-quoted string. */
  quoted: boolean;
}

export type TokenizeResult = { ok: true; tokens: Token[] } | { ok: false; message: string };

export function tokenText(token: Token): string {
  return fromUtf8(token.bytes);
}

const isSpace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';

export function tokenize(input: string): TokenizeResult {
  const tokens: Token[] = [];
  const chars = Array.from(input);
  let i = 0;
  while (i < chars.length) {
    if (isSpace(chars[i])) {
      i += 1;
      continue;
    }
    const start = i;
    const bytes: number[] = [];
    let quotedSegments = 0;
    let plainChars = 0;
    let inQuote = false;
    while (i < chars.length && (inQuote || !isSpace(chars[i]))) {
      const ch = chars[i];
      if (ch === '"') {
        if (!inQuote) quotedSegments += 1;
        inQuote = !inQuote;
        i += 1;
        continue;
      }
      if (!inQuote) plainChars += 1;
      if (ch === '\\') {
        const next = chars[i + 1];
        if (next === undefined) return { ok: false, message: 'A backslash at the end needs a character after it' };
        if (/[0-9]/.test(next)) {
          const digits = chars.slice(i + 1, i + 4).join('');
          if (!/^[0-9]{3}$/.test(digits) || Number(digits) > 255) {
            return { ok: false, message: 'A backslash before digits needs exactly three of them, 000 to 255 (a byte, e.g. \\059 for ";")' };
          }
          bytes.push(Number(digits));
          i += 4;
          continue;
        }
        pushUtf8(bytes, next);
        i += 2;
        continue;
      }
      pushUtf8(bytes, ch);
      i += 1;
    }
    if (inQuote) return { ok: false, message: 'A quoted string is not closed: add the missing double quote (")' };
    tokens.push({
      raw: chars.slice(start, i).join(''),
      bytes: Uint8Array.from(bytes),
      quoted: quotedSegments === 1 && plainChars === 0 && chars[start] === '"' && chars[i - 1] === '"',
    });
  }
  return { ok: true, tokens };
}

/** Length in bytes of the UTF-8 sequence that starts at `bytes[i]`, or 0 when it is not valid UTF-8. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  const length = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
  if (b >= 0xf5) return 0;
  if (length === 0 || i + length > bytes.length) return 0;
  for (let k = 1; k < length; k += 1) if ((bytes[i + k] & 0xc0) !== 0x80) return 0;
  return length;
}

/** Writes bytes as one quoted string: `"` and `\` escaped, control bytes and invalid UTF-8 as \DDD. */
export function quoteBytes(bytes: Uint8Array): string {
  let out = '"';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b === 0x22 || b === 0x5c) {
      out += `\\${String.fromCharCode(b)}`;
      i += 1;
    } else if (b >= 0x20 && b < 0x7f) {
      out += String.fromCharCode(b);
      i += 1;
    } else if (b >= 0x80 && utf8SequenceLength(bytes, i) > 0) {
      const length = utf8SequenceLength(bytes, i);
      out += fromUtf8(bytes.subarray(i, i + length));
      i += length;
    } else {
      out += `\\${String(b).padStart(3, '0')}`;
      i += 1;
    }
  }
  return `${out}"`;
}

export function quoteText(text: string): string {
  return quoteBytes(utf8(text));
}

/**
 * Splits bytes into pieces of at most `max` bytes without cutting a UTF-8 character in two
 * (a piece ends before a character that would not fit whole).
 */
export function chunkBytes(bytes: Uint8Array, max = 255): Uint8Array[] {
  if (bytes.length === 0) return [bytes];
  const chunks: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + max, bytes.length);
    if (end < bytes.length) {
      let back = end;
      while (back > start && (bytes[back] & 0xc0) === 0x80 && end - back < 3) back -= 1;
      if (back > start && (bytes[back] & 0xc0) !== 0x80) end = back;
    }
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}
