import { describe, expect, it } from 'vitest';
import { blankFormValues } from './record-form.ts';
import { fieldOfServerError, fieldOfZoneProblem, recordFormView, signLines } from './record-form-view.ts';

describe('what the record form shows', () => {
  it('puts a problem on the field it is about: the name, the type, else the data the type ends with', () => {
    expect(fieldOfZoneProblem({ message: 'x', field: 'name' }, 'MX')).toBe('name');
    expect(fieldOfZoneProblem({ message: 'x', field: 'type' }, 'MX')).toBe('type');
    expect(fieldOfZoneProblem({ message: 'x', field: 'rdata' }, 'MX')).toBe('host');
    expect(fieldOfServerError('rdata', 'MX')).toBe('host');
    expect(fieldOfServerError('tags.2', 'A')).toBe('tags');
    expect(fieldOfServerError('ttl', 'A')).toBe('ttl');
  });

  it('reads the values as typed: the full name, a TTL preset or not, the record to send, notes only on offer', () => {
    const values = { ...blankFormValues('A', 'www', 300), value: '192.0.2.1', comment: 'web', tags: 'prod' };
    const withNotes = recordFormView(values, 'example.com', true);
    expect(withNotes.preview).toBe('www.example.com');
    expect(withNotes.record).toMatchObject({ name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300, comment: 'web', tags: ['prod'] });
    expect(recordFormView(values, 'example.com', false).record).not.toHaveProperty('comment');
    expect(recordFormView({ ...values, ttl: '301' }, 'example.com', true).presetMatch).toBe('custom');
    expect(recordFormView({ ...values, name: 'bad name' }, 'example.com', true).preview).toBeNull();
  });

  it('words an edit for the wallet with what its notes change', () => {
    const initial = { ...blankFormValues('A', 'www', 300), value: '192.0.2.1', comment: 'old', tags: 'prod' };
    const record = { name: 'www', type: 'A' as const, rdata: '192.0.2.1', ttl: 300, comment: 'new', tags: [] };
    const lines = signLines({ record, zoneName: 'example.com', mode: 'edit', initial, conversions: [], typeNotes: ['a type note'] });
    expect(lines[0]).toMatch(/^Change one record in example\.com: /);
    expect(lines.slice(1)).toEqual(['TTL 5 min', 'Comment changed to “new”', 'Tags prod removed', 'a type note']);
  });
});
