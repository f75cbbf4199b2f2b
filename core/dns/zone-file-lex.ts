/** A zone file as logical entries (parentheses join lines, `;` comments set apart), as BIND 9 reads it. */

export interface Entry {
  line: number;
  text: string;
  ownerBlank: boolean;
  tokens: string[];
  error?: string;
  /** The text after `;` on the entry's lines, joined. */
  comment?: string;
}

/** Splits a zone file into logical entries: comments dropped, parentheses joining lines, quotes kept whole. */
export function lex(text: string): Entry[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n|\r/);
  const entries: Entry[] = [];
  let entry: Entry | null = null;
  let depth = 0;
  const finish = () => {
    if (entry && (entry.tokens.length > 0 || entry.error)) entries.push(entry);
    entry = null;
    depth = 0;
  };
  lines.forEach((source, index) => {
    if (depth === 0 || !entry) {
      finish();
      entry = { line: index + 1, text: source.trim(), ownerBlank: /^[ \t]/.test(source), tokens: [] };
    } else {
      entry.text = `${entry.text} ${source.trim()}`.trim();
    }
    const current: Entry = entry;
    let token = '';
    let inToken = false;
    let inQuote = false;
    const endToken = () => {
      if (inToken) current.tokens.push(token);
      token = '';
      inToken = false;
    };
    for (let i = 0; i < source.length; i += 1) {
      const ch = source[i];
      if (inQuote) {
        token += ch;
        if (ch === '\\' && i + 1 < source.length) {
          token += source[i + 1];
          i += 1;
        } else if (ch === '"') {
          inQuote = false;
        }
        continue;
      }
      if (ch === ';') {
        const note = source.slice(i + 1).trim();
        if (note) current.comment = current.comment ? `${current.comment} ${note}` : note;
        break;
      }
      if (ch === ' ' || ch === '\t') {
        endToken();
      } else if (ch === '(' || ch === ')') {
        endToken();
        depth += ch === '(' ? 1 : -1;
        if (depth < 0) {
          current.error ??= 'A closing parenthesis ")" has no opening "(" before it';
          depth = 0;
        }
      } else if (ch === '"') {
        inToken = true;
        inQuote = true;
        token += ch;
      } else {
        inToken = true;
        token += ch;
        if (ch === '\\' && i + 1 < source.length) {
          token += source[i + 1];
          i += 1;
        }
      }
    }
    if (inQuote) current.error ??= 'A quoted string is not closed on this line: add the missing double quote (")';
    endToken();
  });
  if (depth > 0 && entry) (entry as Entry).error ??= 'A parenthesis "(" is never closed: add the missing ")"';
  finish();
  return entries;
}
