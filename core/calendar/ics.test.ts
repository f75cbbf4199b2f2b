import { describe, expect, it } from 'vitest';
import { parseIcs, prop } from '../../test/support/ics-parse.ts';
import { calendarFileName, escapeText, foldLine, icsTime, printCalendar, REMINDER_DAYS } from './ics.ts';

const now = new Date('2026-11-26T09:00:00Z');
const octets = (s: string) => new TextEncoder().encode(s).length;

describe('calendar files of domain expiries (RFC 5545)', () => {
  it('makes one event per domain, at its expiry, with alarms 30, 7 and 1 days before', () => {
    const text = printCalendar(
      [
        { domain: 'zeta.com', expiresAt: '2027-06-01T00:00:00.000Z', url: 'https://app.example/domains/zeta.com' },
        { domain: 'alpha.io', expiresAt: '2026-12-20T12:30:00.000Z', url: 'https://app.example/domains/alpha.io' },
      ],
      { now, name: 'My domains' },
    );
    const { calendar } = parseIcs(text);
    expect(calendar.name).toBe('VCALENDAR');
    expect(prop(calendar, 'VERSION')).toBe('2.0');
    expect(prop(calendar, 'PRODID')).toMatch(/^-\/\//);
    const events = calendar.children.filter((c) => c.name === 'VEVENT');
    // Soonest first.
    expect(events.map((e) => prop(e, 'SUMMARY'))).toEqual(['alpha.io expires', 'zeta.com expires']);
    const [alpha] = events;
    expect(prop(alpha, 'DTSTART')).toBe('20261220T123000Z');
    expect(prop(alpha, 'DTEND')).toBe('20261220T130000Z');
    expect(prop(alpha, 'DTSTAMP')).toBe('20261126T090000Z');
    expect(prop(alpha, 'UID')).toBe('expiry-alpha.io@app.example');
    expect(prop(alpha, 'URL')).toBe('https://app.example/domains/alpha.io');
    expect(prop(alpha, 'DESCRIPTION')).toBe('alpha.io expires on 2026-12-20 at 12:30 UTC. Renew it before then to keep the name and its records: https://app.example/domains/alpha.io');
    const alarms = alpha.children.filter((c) => c.name === 'VALARM');
    expect(alarms.map((a) => prop(a, 'TRIGGER'))).toEqual(['-P30D', '-P7D', '-P1D']);
    expect(alarms.map((a) => a.props.TRIGGER[0].params)).toEqual(REMINDER_DAYS.map(() => ({ RELATED: 'START' })));
    expect(alarms.every((a) => prop(a, 'ACTION') === 'DISPLAY' && prop(a, 'DESCRIPTION')?.startsWith('alpha.io expires in'))).toBe(true);
    expect(prop(alarms[2], 'DESCRIPTION')).toBe('alpha.io expires in 1 day (2026-12-20)');
  });

  it('ends every line with CRLF and folds long lines at 75 octets without splitting a character', () => {
    const long = `${'ü'.repeat(40)}-${'例'.repeat(30)}.com`;
    const text = printCalendar([{ domain: long, expiresAt: '2027-01-02T03:04:05Z', url: `https://app.example/domains/${encodeURIComponent(long)}` }], { now, name: 'One, long; name\\here' });
    expect(text.split('\r\n').slice(0, -1).every((line) => !line.includes('\n') && octets(line) <= 75)).toBe(true);
    expect(text.match(/\r\n /g)?.length).toBeGreaterThan(3);
    const { calendar, rawLines } = parseIcs(text);
    expect(rawLines.some((line) => octets(line) === 75 || octets(line) >= 73)).toBe(true);
    expect(prop(calendar, 'X-WR-CALNAME')).toBe('One, long; name\\here');
    const [event] = calendar.children;
    expect(prop(event, 'SUMMARY')).toBe(`${long} expires`);
    expect(prop(event, 'URL')).toBe(`https://app.example/domains/${encodeURIComponent(long)}`);
  });

  it('folds exactly: a line of 75 octets stays, 76 becomes 75 and a space plus one', () => {
    expect(foldLine('a'.repeat(75))).toBe('a'.repeat(75));
    expect(foldLine('a'.repeat(76))).toBe(`${'a'.repeat(75)}\r\n a`);
    expect(foldLine('a'.repeat(75 + 74 + 1))).toBe(`${'a'.repeat(75)}\r\n ${'a'.repeat(74)}\r\n a`);
    // A three-octet character that would straddle the 75th octet moves whole to the next line.
    const folded = foldLine(`${'a'.repeat(74)}例b`);
    expect(folded).toBe(`${'a'.repeat(74)}\r\n 例b`);
  });

  it('escapes TEXT values and writes UTC times in the basic format', () => {
    expect(escapeText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
    expect(icsTime(new Date('2027-06-01T00:00:00.000Z'))).toBe('20270601T000000Z');
  });

  it('refuses an expiry that is not a date, and names the files', () => {
    expect(() => printCalendar([{ domain: 'x.com', expiresAt: 'soon' }], { now, name: 'x' })).toThrow(/x\.com/);
    expect(calendarFileName('x.com')).toBe('x.com-expiry.ics');
    expect(calendarFileName()).toBe('domain-expiries.ics');
  });

  it('an empty wallet still makes a valid calendar', () => {
    const { calendar } = parseIcs(printCalendar([], { now, name: 'None' }));
    expect(calendar.children).toEqual([]);
  });
});
