import { z } from 'zod';
import { textProblem } from '../wire/text.ts';

/**
 * A record's comment and tags (ours, issue 36): notes a person keeps on a record, signed with it and never served by
 * the name server. One home for their rules, which the record form, the service's input schemas and the zone-file
 * reader all run.
 *
 * - A comment is one line of text, at most MAX_COMMENT Unicode characters (code points, not UTF-16 units).
 * - At most MAX_TAGS tags, each `name` or `name:value`, at most MAX_TAG characters: the name starts with a letter or a
 *   digit and holds letters, digits, `-`, `_` and `.`; the value is one or more characters without spaces, commas or
 *   control characters. The same tag twice on one record is refused.
 */
export const MAX_COMMENT = 500;
export const MAX_TAGS = 10;
const MAX_TAG = 64;

const TAG = /^[A-Za-z0-9][A-Za-z0-9_.-]*(?::[^\s,:]+)?$/;

const TAG_RULE = `A tag is name or name:value (letters, digits, - _ . in the name; no spaces or commas), at most ${MAX_TAG} characters`;

const characters = (text: string) => [...text].length;

/** Why `comment` cannot be a record's comment, or null. */
export function commentProblem(comment: string): string | null {
  const n = characters(comment);
  if (n > MAX_COMMENT) return `A comment is at most ${MAX_COMMENT} characters; this one has ${n}`;
  return textProblem(comment, { bidi: true });
}

/** Why `tag` cannot be a tag, or null. */
export function tagProblem(tag: string): string | null {
  if (tag.length === 0) return 'A tag cannot be empty';
  if (characters(tag) > MAX_TAG) return `A tag is at most ${MAX_TAG} characters; "${tag.slice(0, 20)}…" has ${characters(tag)}`;
  if (!TAG.test(tag)) return `"${tag}" is not a tag. ${TAG_RULE}`;
  return textProblem(tag, { bidi: true });
}

/** The problems of a list of tags: for the list (`index` null) or one tag. */
export function tagsProblems(tags: readonly string[]): Array<{ index: number | null; message: string }> {
  const problems: Array<{ index: number | null; message: string }> = [];
  if (tags.length > MAX_TAGS) problems.push({ index: null, message: `At most ${MAX_TAGS} tags per record; this one has ${tags.length}` });
  const seen = new Set<string>();
  tags.forEach((tag, index) => {
    const problem = tagProblem(tag);
    if (problem) problems.push({ index, message: problem });
    else if (seen.has(tag)) problems.push({ index, message: `The tag "${tag}" is there twice: keep it once` });
    seen.add(tag);
  });
  return problems;
}

/** The wire schemas: an input's comment and tags, refused at the field (`comment`, `tags`, `tags.3`) with the rule in words. */
export const recordComment = z.string().superRefine((value, ctx) => {
  const problem = commentProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
export const recordTags = z.array(z.string()).superRefine((tags, ctx) => {
  for (const { index, message } of tagsProblems(tags)) ctx.addIssue({ code: 'custom', message, path: index === null ? [] : [index] });
});

/** A record's notes as stored: production's records (and managed ones) have none. */
export function notesOf(record: { comment?: string; tags?: readonly string[] }): { comment: string; tags: string[] } {
  return { comment: record.comment ?? '', tags: [...(record.tags ?? [])] };
}

/** Tags as a person types them: separated by commas or spaces, empty pieces dropped. */
export function parseTags(text: string): string[] {
  return text.split(/[\s,]+/).filter((t) => t.length > 0);
}

/**
 * Whether a record carries the tag a filter names: `prod` matches the tag `prod` and any `prod:…`; `env:prod` only
 * that tag. Case-insensitive.
 */
export function hasTag(tags: readonly string[] | undefined, wanted: string): boolean {
  if (!tags || tags.length === 0) return false;
  const w = wanted.toLowerCase();
  const exact = w.includes(':');
  return tags.some((tag) => {
    const t = tag.toLowerCase();
    return t === w || (!exact && t.startsWith(`${w}:`));
  });
}

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/** Whether two records' notes differ. */
export function notesDiffer(a: { comment?: string; tags?: readonly string[] }, b: { comment?: string; tags?: readonly string[] }): boolean {
  const x = notesOf(a);
  const y = notesOf(b);
  return x.comment !== y.comment || !sameTags(x.tags, y.tags);
}

/**
 * The notes as a zone file's `;` comment on the record's line: `; <comment> [tags: a, b:c]`, or '' without notes.
 * Read back by readNotes.
 */
export function printNotes(notes: { comment?: string; tags?: readonly string[] }): string {
  const { comment, tags } = notesOf(notes);
  const parts = [comment.trim(), tags.length > 0 ? `[tags: ${tags.join(', ')}]` : ''].filter((p) => p.length > 0);
  return parts.length > 0 ? `; ${parts.join(' ')}` : '';
}

const TAGS_SUFFIX = /\s*\[tags:\s*([^\]]*)\]\s*$/;

/** A zone file line's comment (the text after `;`, without it) as notes: a trailing `[tags: a, b]` gives the tags. */
export function readNotes(text: string): { comment: string; tags: string[] } {
  const match = TAGS_SUFFIX.exec(text);
  const tags = match ? parseTags(match[1]) : [];
  const comment = (match ? text.slice(0, match.index) : text).trim();
  return { comment, tags };
}
