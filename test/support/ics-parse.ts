/**
 * Reads an iCalendar file (RFC 5545) back, strictly enough to check what a writer must do: every line ends in CRLF
 * and is at most 75 octets, folded lines are unfolded (a CRLF and one space), TEXT values are unescaped, and the
 * components nest (VCALENDAR > VEVENT > VALARM). For tests and journeys only.
 */
export interface IcsComponent {
  name: string;
  /** Each property's values in order (a property may repeat), keyed by its name; parameters in `params`. */
  props: Record<string, Array<{ value: string; params: Record<string, string> }>>;
  children: IcsComponent[];
}

export interface IcsFile {
  calendar: IcsComponent;
  /** The physical lines, without their CRLF. */
  rawLines: string[];
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

export function parseIcs(text: string): IcsFile {
  if (!text.endsWith('\r\n')) throw new Error('The file does not end with CRLF');
  const rawLines = text.slice(0, -2).split('\r\n');
  const encoder = new TextEncoder();
  rawLines.forEach((line, i) => {
    if (line.includes('\n') || line.includes('\r')) throw new Error(`Line ${i + 1} has a bare line break`);
    if (encoder.encode(line).length > 75) throw new Error(`Line ${i + 1} is longer than 75 octets: ${line}`);
  });
  const logical: string[] = [];
  for (const line of rawLines) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      if (logical.length === 0) throw new Error('The file starts with a continuation line');
      logical[logical.length - 1] += line.slice(1);
    } else logical.push(line);
  }
  const stack: IcsComponent[] = [];
  let calendar: IcsComponent | undefined;
  for (const line of logical) {
    const colon = line.indexOf(':');
    if (colon < 0) throw new Error(`No colon in ${line}`);
    const [name, ...paramParts] = line.slice(0, colon).split(';');
    const value = line.slice(colon + 1);
    if (name === 'BEGIN') {
      const component: IcsComponent = { name: value, props: {}, children: [] };
      if (stack.length > 0) stack[stack.length - 1].children.push(component);
      else calendar = component;
      stack.push(component);
      continue;
    }
    if (name === 'END') {
      const open = stack.pop();
      if (open?.name !== value) throw new Error(`END:${value} closes ${open?.name ?? 'nothing'}`);
      continue;
    }
    const current = stack[stack.length - 1];
    if (!current) throw new Error(`${name} outside any component`);
    const params = Object.fromEntries(paramParts.map((p) => p.split('=') as [string, string]));
    (current.props[name] ??= []).push({ value, params });
  }
  if (!calendar || stack.length > 0) throw new Error('Unbalanced BEGIN/END');
  return { calendar, rawLines };
}

/** A property's first value, TEXT-unescaped. */
export function prop(component: IcsComponent, name: string): string | undefined {
  const first = component.props[name]?.[0];
  return first === undefined ? undefined : unescapeText(first.value);
}
