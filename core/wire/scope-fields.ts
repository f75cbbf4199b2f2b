import { z } from 'zod';
import { RECORD_TYPES } from './dns.ts';

/** A scope's name: `@`, a relative name, `*.name` or `*` (lowercase, no trailing dot). */
const scopeName = z
  .string()
  .regex(/^(\*|@|(\*\.)?(@|[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*))$/, 'A name is @, a name relative to the zone (www, _acme.www), *.name for every name below it, or *');

export const scopeNames = z.array(scopeName).max(50, 'At most 50 names');
export const scopeTypes = z.array(z.enum(RECORD_TYPES, { error: `A type is one of ${RECORD_TYPES.join(', ')}` })).max(20, 'At most 20 types');
