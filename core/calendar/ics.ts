/**
 * Calendar files (iCalendar, RFC 5545) for domain expiries: one event per domain at the moment it expires, with a
 * reminder (VALARM) 30, 7 and 1 days before, so that a person keeps the dates in the calendar they already read.
 *
 * Written here because no iCalendar package is installed; the `ics` package (npm, 3.x) would replace `printCalendar`.
 * What RFC 5545 asks of a file and this one does: CRLF line endings (3.1), lines folded at 75 octets of UTF-8 without
 * splitting a character, the continuation starting with one space (3.1), TEXT values escaped (3.3.11), UTC times in
 * the basic format (3.3.5), and every VEVENT with a UID and a DTSTAMP (3.6.1).
 */

import { DAY_MS } from '../dates.ts';

/** Days before expiry at which the calendar reminds: a month to plan, a week to act, the day before. */
export const REMINDER_DAYS = [30, 7, 1] as const;

export interface ExpiryEvent {
  /** The domain, as the dashboard shows it (normalized). */
  domain: string;
  /** When it expires (ISO 8601). */
  expiresAt: string;
  /** The domain's page in the dashboard, where it is renewed. */
  url?: string;
}

export interface CalendarOptions {
  /** When the file is made: every event's DTSTAMP. */
  now: Date;
  /** The calendar's name, shown by clients that read X-WR-CALNAME. */
  name: string;
}

const CRLF = '\r\n';
const MAX_OCTETS = 75;
const encoder = new TextEncoder();

/** A TEXT value with `\`, `;`, `,` and line breaks escaped (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * One content line folded into lines of at most 75 octets; each continuation begins with a space, which counts
 * toward its 75. A character's UTF-8 bytes are never split between two lines.
 */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= MAX_OCTETS) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = MAX_OCTETS;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = MAX_OCTETS - 1; // the leading space of a continuation
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** A UTC time in the basic format: 20270601T000000Z. */
export function icsTime(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const plural = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/** The lines of one domain's expiry event and its reminders. */
function eventLines(event: ExpiryEvent, now: Date, host: string): string[] {
  const expires = new Date(event.expiresAt);
  if (Number.isNaN(expires.getTime())) throw new Error(`${event.domain}: the expiry ${event.expiresAt} is not a date`);
  const end = new Date(expires.getTime() + 30 * 60_000);
  const renew = event.url ? ` Renew it before then to keep the name and its records: ${event.url}` : ' Renew it before then to keep the name and its records.';
  const description = `${event.domain} expires on ${dayOf(expires)} at ${expires.toISOString().slice(11, 16)} UTC.${renew}`;
  const lines = [
    'BEGIN:VEVENT',
    // Stable per domain: a file downloaded again after a renewal updates the event instead of adding a second one.
    `UID:expiry-${event.domain}@${host}`,
    // Grows with the expiry, so a calendar that compares sequences takes the later file's date.
    `SEQUENCE:${Math.max(0, Math.floor(expires.getTime() / DAY_MS))}`,
    `DTSTAMP:${icsTime(now)}`,
    `DTSTART:${icsTime(expires)}`,
    `DTEND:${icsTime(end)}`,
    `SUMMARY:${escapeText(`${event.domain} expires`)}`,
    `DESCRIPTION:${escapeText(description)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    'TRANSP:TRANSPARENT',
  ];
  for (const days of REMINDER_DAYS) {
    lines.push(
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      `DESCRIPTION:${escapeText(`${event.domain} expires in ${plural(days)} (${dayOf(expires)})`)}`,
      `TRIGGER;RELATED=START:-P${days}D`,
      'END:VALARM',
    );
  }
  lines.push('END:VEVENT');
  return lines;
}

/** The host that makes UIDs unique to this dashboard (RFC 5545 suggests a domain on the right of an `@`). */
function hostOf(events: ExpiryEvent[]): string {
  for (const event of events) {
    if (!event.url) continue;
    try {
      return new URL(event.url).host || 'namefi-dashboard';
    } catch {
      // an unusual URL: fall through to the default
    }
  }
  return 'namefi-dashboard';
}

/** A whole calendar of expiries, ready to save as a `.ics` file (text/calendar). */
export function printCalendar(events: readonly ExpiryEvent[], options: CalendarOptions): string {
  const sorted = [...events].sort((a, b) => Date.parse(a.expiresAt) - Date.parse(b.expiresAt) || a.domain.localeCompare(b.domain));
  const host = hostOf(sorted);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Namefi dashboard//Domain expiry reminders//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name)}`,
    ...sorted.flatMap((event) => eventLines(event, options.now, host)),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/** The file name a calendar is saved under: one domain's, or every domain's of a wallet. */
export function calendarFileName(domain?: string): string {
  return domain ? `${domain}-expiry.ics` : 'domain-expiries.ics';
}

/** The expiries of a wallet's domains (or one of them) as events linking to each domain's page under `origin`. */
export function expiryEvents(domains: ReadonlyArray<{ normalizedDomainName: string; expirationDate: string }>, origin: string): ExpiryEvent[] {
  return domains.map((d) => ({ domain: d.normalizedDomainName, expiresAt: d.expirationDate, url: `${origin}/domains/${d.normalizedDomainName}` }));
}
