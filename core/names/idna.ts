/**
 * Unicode names typed by a person → their A-labels (UTS-46, as IDNA 2008 registries use), done by the
 * dashboard before anything is signed: the service refuses non-ASCII names, and what is signed is what is
 * stored. The WHATWG URL parser does the UTS-46 processing (mapping, NFC, punycode) the same way in browsers
 * and Node; it is fed one label at a time, so nothing of URL syntax (`ü@mail` would lose everything before
 * the @) can cut or rewrite a name. ASCII labels are never touched: `_dmarc`, `*` and `@` stay as typed.
 */
export type ALabelResult =
  | { ok: true; ascii: string; unicode: string; converted: boolean }
  | { ok: false; reason: string };

/** Full stops that UTS-46 treats as the dot between labels. */
const IDEOGRAPHIC_DOTS = /[\u3002\uff0e\uff61]/g;
/** The only ASCII a Unicode label may carry besides its own letters: letters, digits, hyphen, underscore. */
const LABEL_ASCII = /^[A-Za-z0-9_-]$/;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** URL syntax (@ / : ? # % …), spaces, controls, invisible format characters, lone surrogates. */
function hasNonLabelCharacter(label: string): boolean {
  for (const char of label) if (char.charCodeAt(0) <= 0x7f && !LABEL_ASCII.test(char)) return true;
  return /[\s\p{Cc}\p{Cf}\p{Cs}\p{Co}]/u.test(label);
}

function labelToAscii(label: string): string | null {
  if (isAscii(label)) return label;
  if (hasNonLabelCharacter(label)) return null;
  // A trailing ASCII label keeps the parser from reading a label that maps to digits (１２３) as an IPv4 address.
  const suffix = '.idna-check';
  let host: string;
  try {
    host = new URL(`http://${label}${suffix}`).hostname;
  } catch {
    return null;
  }
  if (!host.endsWith(suffix)) return null;
  const ascii = host.slice(0, -suffix.length);
  // A character that maps to a dot (⒈ → "1.") would split the label: refuse rather than change the name's shape.
  if (ascii === '' || ascii.includes('.')) return null;
  return ascii;
}

/**
 * A name as typed → the same name with every non-ASCII label as its A-label: `münchen` → `xn--mnchen-3ya`,
 * `bücher.shop.` → `xn--bcher-kva.shop.`, `_dmarc.ü` → `_dmarc.xn--tda`. Only conversion: whether the result
 * is a valid record or domain name is for the validators that come after.
 */
export function toALabels(input: string): ALabelResult {
  const unicode = input.trim();
  if (isAscii(unicode)) return { ok: true, ascii: unicode, unicode, converted: false };
  const labels = unicode.replace(IDEOGRAPHIC_DOTS, '.').split('.');
  const out: string[] = [];
  for (const label of labels) {
    const ascii = labelToAscii(label);
    if (ascii === null) {
      return { ok: false, reason: `“${label}” cannot be written as an international (xn--) name: use letters, digits and hyphens` };
    }
    out.push(ascii);
  }
  return { ok: true, ascii: out.join('.'), unicode, converted: true };
}

/** "münchen → xn--mnchen-3ya" for a converted name; undefined when there was nothing to convert. */
export function describeConversion(result: ALabelResult): string | undefined {
  return result.ok && result.converted ? `${result.unicode} → ${result.ascii}` : undefined;
}
