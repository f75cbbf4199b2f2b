import { describe, expect, it } from 'vitest';
import { dnsRecord, updateDnsRecordInput, zoneRecordInput } from '../wire/dns.ts';
import { commentProblem, hasTag, parseTags, printNotes, readNotes, tagProblem, tagsProblems } from './record-notes.ts';
import { parseZoneFile, printZoneFile } from './zone-file.ts';

describe('record notes: the rules', () => {
  it('takes a comment of 500 Unicode characters and refuses 501, counting code points, and one with a line break', () => {
    expect(commentProblem('🙂'.repeat(500))).toBeNull();
    expect(commentProblem('é'.repeat(501))).toBe('A comment is at most 500 characters; this one has 501');
    expect(commentProblem('two\nlines')).toMatch(/control character U\+000A/);
  });

  it('takes ten tags of name or name:value up to 64 characters, and names the rule for the rest', () => {
    expect(tagsProblems(Array.from({ length: 10 }, (_, i) => `t${i}`))).toEqual([]);
    expect(tagsProblems(Array.from({ length: 11 }, (_, i) => `t${i}`))).toEqual([{ index: null, message: 'At most 10 tags per record; this one has 11' }]);
    for (const good of ['prod', 'env:prod', 'team.web', 'owner:alice@example.com', 'a'.repeat(64)]) expect(tagProblem(good), good).toBeNull();
    expect(tagProblem('a'.repeat(65))).toMatch(/at most 64 characters/);
    for (const bad of ['has space', 'env:', ':prod', '-x', 'a,b', 'a:b:c', '']) expect(tagProblem(bad), bad).not.toBeNull();
    expect(tagProblem('has space')).toMatch(/name or name:value/);
    expect(tagsProblems(['prod', 'prod'])).toEqual([{ index: 1, message: 'The tag "prod" is there twice: keep it once' }]);
  });

  it('are the wire schemas: a refusal lands on comment, tags or tags.N', () => {
    const base = { name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 60 };
    const paths = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) => result.error?.issues.map((i) => i.path.join('.'));
    expect(paths(zoneRecordInput.safeParse({ ...base, comment: 'x'.repeat(501) }))).toEqual(['comment']);
    expect(paths(zoneRecordInput.safeParse({ ...base, tags: ['ok', 'not ok'] }))).toEqual(['tags.1']);
    expect(paths(updateDnsRecordInput.safeParse({ id: 'r', zoneName: 'a.com', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }))).toEqual(['tags']);
    expect(zoneRecordInput.safeParse({ ...base }).success).toBe(true);
    // Production's records carry no notes: they still parse.
    expect(dnsRecord.safeParse({ id: 'r', zoneName: 'a.com', name: '@', type: 'A', class: 'IN', ttl: 60, rdata: '192.0.2.1', metadata: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }).success).toBe(true);
  });

  it('filter by tag: a name matches the tag and its name:value forms, a name:value only itself, in any case', () => {
    expect(hasTag(['prod'], 'prod')).toBe(true);
    expect(hasTag(['env:prod'], 'env')).toBe(true);
    expect(hasTag(['env:prod'], 'ENV:PROD')).toBe(true);
    expect(hasTag(['env:prod'], 'env:staging')).toBe(false);
    expect(hasTag(['production'], 'prod')).toBe(false);
    expect(hasTag(undefined, 'prod')).toBe(false);
    expect(parseTags(' prod, team:web  cdn,,')).toEqual(['prod', 'team:web', 'cdn']);
  });
});

describe('record notes in zone files', () => {
  it('export writes a record notes as the ; comment on its line, and import reads them back', () => {
    const records = [
      { name: 'www', type: 'A' as const, rdata: '192.0.2.1', ttl: 300, comment: 'Web server; Zürich', tags: ['prod', 'team:web'] },
      { name: 'mail', type: 'TXT' as const, rdata: '"v=spf1 -all"', ttl: 300, comment: 'Only a comment', tags: [] },
      { name: 'api', type: 'A' as const, rdata: '192.0.2.2', ttl: 300, tags: ['prod'] },
      { name: 'plain', type: 'A' as const, rdata: '192.0.2.3', ttl: 300 },
    ];
    const text = printZoneFile('example.com', records, { now: new Date('2026-01-01T00:00:00Z') });
    expect(text).toContain('IN  A    192.0.2.1 ; Web server; Zürich [tags: prod, team:web]');
    expect(text).toMatch(/plain\.example\.com\.\s+300\s+IN\s+A\s+192\.0\.2\.3\n/);
    const parsed = parseZoneFile(text, { origin: 'example.com' });
    expect(parsed.errors).toEqual([]);
    const byName = new Map(parsed.records.map((r) => [r.name, r]));
    expect(byName.get('www')).toEqual(records[0]);
    expect(byName.get('mail')).toEqual(records[1]);
    expect(byName.get('api')).toEqual({ ...records[2], comment: '' });
    expect(byName.get('plain')).toEqual(records[3]);
  });

  it('import keeps a record whose comment breaks the rules, without the comment, and says why', () => {
    const parsed = parseZoneFile(`$TTL 60\nwww A 192.0.2.1 ; ${'x'.repeat(501)}\napi A 192.0.2.2 ; [tags: not!ok:x:y]`, { origin: 'example.com' });
    expect(parsed.records.map((r) => [r.name, r.comment])).toEqual([['www', undefined], ['api', undefined]]);
    expect(parsed.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/comment is not kept: A comment is at most 500/), expect.stringMatching(/comment is not kept: .*name or name:value/)]);
  });

  it('notes print and read back as one comment', () => {
    expect(printNotes({ comment: '', tags: [] })).toBe('');
    expect(readNotes(printNotes({ comment: 'a [b]', tags: ['x', 'y:z'] }).slice(1))).toEqual({ comment: 'a [b]', tags: ['x', 'y:z'] });
  });

});
