import { describe, expect, it } from 'vitest';
import { operations } from '#core/operations/index.ts';
import { handlers } from './index.ts';

describe('the operation table and the handlers', () => {
  it('has a handler for every operation of the contract, and none for an operation it does not declare', () => {
    const declared = Object.keys(operations).sort();
    const handled = Object.keys(handlers).sort();
    expect(declared.filter((id) => !handled.includes(id))).toEqual([]);
    expect(handled.filter((id) => !declared.includes(id))).toEqual([]);
  });
});
