import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from './secrets.ts';

describe('sealed secrets (a TSIG form’s secret, which HMAC needs back)', () => {
  const secret = randomBytes(32);
  const KEY = 'a secrets key of at least thirty-two characters';

  it('seals under SECRETS_KEY so the stored text reveals nothing, and opens again only under that key', () => {
    const sealed = sealSecret(secret, KEY);
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain(secret.toString('base64'));
    expect(sealSecret(secret, KEY)).not.toBe(sealed);
    expect(openSecret(sealed, KEY)).toEqual(secret);
    expect(openSecret(sealed, `${KEY}!`)).toBeNull();
    expect(openSecret(sealed, undefined)).toBeNull();
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(openSecret(tampered, KEY)).toBeNull();
  });

  it('keeps it as it is without SECRETS_KEY, and opens that form whatever the key', () => {
    const stored = sealSecret(secret, undefined);
    expect(stored).toBe(`plain:${secret.toString('base64')}`);
    expect(openSecret(stored, undefined)).toEqual(secret);
    expect(openSecret(stored, KEY)).toEqual(secret);
    expect(openSecret('nonsense', KEY)).toBeNull();
  });
});
