import { describe, expect, it } from 'vitest';
import { checkReceiver } from './receiver.ts';

const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('the receiving wallet, checked at the field', () => {
  it('takes an address in checksum, lower or upper case, and answers it checksummed', () => {
    expect(checkReceiver(BOB, OWNER)).toEqual({ ok: true, address: BOB });
    expect(checkReceiver(` ${BOB.toLowerCase()} `, OWNER)).toEqual({ ok: true, address: BOB });
    expect(checkReceiver(`0x${BOB.slice(2).toUpperCase()}`, OWNER)).toEqual({ ok: true, address: BOB });
  });

  it('refuses the zero address, the owner itself, a wrong checksum, a wrong length and other text, saying why', () => {
    expect(checkReceiver('0x0000000000000000000000000000000000000000', OWNER)).toEqual({ ok: false, reason: expect.stringContaining('zero address') });
    expect(checkReceiver(OWNER.toLowerCase(), OWNER)).toEqual({ ok: false, reason: expect.stringContaining('holds the domain now') });
    expect(checkReceiver(BOB.replace('C5', 'c5'), OWNER)).toEqual({ ok: false, reason: expect.stringContaining('checksum') });
    expect(checkReceiver(BOB.slice(0, -1), OWNER)).toEqual({ ok: false, reason: expect.stringContaining('this one has 39') });
    expect(checkReceiver('bob.eth', OWNER)).toEqual({ ok: false, reason: expect.stringContaining('starts with 0x') });
    expect(checkReceiver('', OWNER)).toEqual({ ok: false, reason: expect.stringContaining('Enter the address') });
  });
});
