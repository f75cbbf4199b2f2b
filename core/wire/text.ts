import { z } from 'zod';

/**
 * Strings from the wire that reach the database or a signature: PostgreSQL text cannot hold NUL ("invalid byte
 * sequence 0x00"), a lone surrogate is not Unicode at all, and control characters have no place in any field.
 * A refusal is a 400 whose path names the field (`label: Contains the control character U+0000…`).
 */

// C0 controls, DEL and C1 controls: finding them is the point.
// oxlint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Embeddings, overrides and isolates: they make a label display as something else than it is.
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

const codeOf = (ch: string) => `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `text` is unfit for any field, or null. `bidi` also refuses text-direction controls. */
export function textProblem(text: string, options: { bidi?: boolean } = {}): string | null {
  const control = CONTROL.exec(text);
  if (control) return `Contains the control character ${codeOf(control[0])}: remove it`;
  if (LONE_SURROGATE.test(text)) return 'Contains a lone surrogate, which is not a Unicode character: send valid text';
  const bidi = options.bidi ? BIDI_CONTROL.exec(text) : null;
  if (bidi) return `Contains the text-direction control ${codeOf(bidi[0])}: remove it`;
  return null;
}

const checked = (options: { bidi?: boolean }) => (value: string, ctx: z.RefinementCtx) => {
  const problem = textProblem(value, options);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

/** A string without NUL, other control characters or lone surrogates. */
export const safeText = (schema = z.string()) => schema.superRefine(checked({}));

/** Text a person reads back, such as a label: also without bidi embeddings, overrides or isolates. */
export const displayText = (schema = z.string()) => schema.superRefine(checked({ bidi: true }));

export function isAsciiText(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

export const NOT_ASCII_MESSAGE = 'Is not ASCII: send its A-label (xn--…)';

/** A DNS name on the wire is ASCII: a Unicode name is sent as its A-label, and the service never rewrites one. */
export const asciiName = (schema = z.string()) =>
  safeText(schema).superRefine((value, ctx) => {
    if (!isAsciiText(value)) ctx.addIssue({ code: 'custom', message: NOT_ASCII_MESSAGE });
  });
