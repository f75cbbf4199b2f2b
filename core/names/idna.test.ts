import { describe, expect, it } from 'vitest';
import { describeConversion, toALabels } from './idna.ts';

function ascii(input: string): string {
  const result = toALabels(input);
  if (!result.ok) throw new Error(result.reason);
  return result.ascii;
}

describe('toALabels', () => {
  it('writes Unicode labels as their UTS-46 A-labels', () => {
    expect(ascii('münchen')).toBe('xn--mnchen-3ya');
    expect(ascii('ü')).toBe('xn--tda');
    expect(ascii('bücher.shop')).toBe('xn--bcher-kva.shop');
    expect(ascii('MÜNCHEN')).toBe('xn--mnchen-3ya');
    expect(ascii('faß')).toBe('xn--fa-hia');
    expect(ascii('例え.jp')).toBe('xn--r8jz45g.jp');
    expect(ascii('mail.bücher.de.')).toBe('mail.xn--bcher-kva.de.');
    expect(ascii('bücher。de')).toBe('xn--bcher-kva.de');
  });

  it('leaves ASCII as typed, so _dmarc, * and @ keep working', () => {
    for (const name of ['@', '*', '*.shop', '_dmarc', '_sip._tcp', 'WWW', 'xn--tda', 'mail.example.com.', '.']) {
      expect(toALabels(name)).toEqual({ ok: true, ascii: name, unicode: name, converted: false });
    }
    expect(ascii('_dmarc.ü')).toBe('_dmarc.xn--tda');
    expect(ascii('*.bücher')).toBe('*.xn--bcher-kva');
  });

  it('says both forms of a converted name, nothing for an ASCII one', () => {
    expect(describeConversion(toALabels(' münchen '))).toBe('münchen → xn--mnchen-3ya');
    expect(describeConversion(toALabels('www'))).toBeUndefined();
  });

  it('refuses what URL syntax or UTS-46 would cut, split or drop, instead of rewriting it', () => {
    for (const name of ['ü@mail', 'ü/x', 'ü:80', 'ü?', 'ü#', 'ü%41', 'ü b', 'ü\u0000', '⒈', 'a\u200db', 'ü\u00ad', 'ü\ud800']) {
      const result = toALabels(name);
      expect(result.ok, JSON.stringify(name)).toBe(false);
    }
    expect(toALabels('ü@mail')).toMatchObject({ ok: false, reason: expect.stringContaining('“ü@mail”') });
  });

  it('does not read a label that maps to digits as an address', () => {
    expect(ascii('１２３.example')).toBe('123.example');
    expect(ascii('１２３')).toBe('123');
  });
});
