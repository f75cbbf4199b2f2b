import { z } from 'zod';
import { operationById } from './operations/index.ts';

/**
 * A change an agent prepared (MCP's prepare_signature) for the person's wallet to sign: the operation and its payload,
 * carried in the dashboard link's fragment (#…, never sent to a server) as base64url JSON. The dashboard checks the
 * payload with the operation's own schema, says it in words, and signs it with the person's wallet.
 */
export interface AgentRequest {
  operationId: string;
  payload: Record<string, unknown>;
}

const agentRequest = z.object({ operationId: z.string().min(1).max(100), payload: z.record(z.string(), z.unknown()) });

const toBase64Url = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join('')).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

export const encodeAgentRequest = (request: AgentRequest): string => toBase64Url(new TextEncoder().encode(JSON.stringify(request)));

/** The request a link carries, or why it cannot be one (a link cut short, an operation that takes no signature). */
export function decodeAgentRequest(fragment: string): { ok: true; request: AgentRequest } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(fromBase64Url(fragment.replace(/^#/, ''))));
  } catch {
    return { ok: false, problem: 'The link is damaged or cut short: ask the agent for it again.' };
  }
  const parsed = agentRequest.safeParse(json);
  if (!parsed.success) return { ok: false, problem: 'The link does not describe a change: ask the agent for it again.' };
  const operation = operationById(parsed.data.operationId);
  if (!operation?.signed) return { ok: false, problem: `${parsed.data.operationId} is not a change a wallet signs.` };
  const payload = operation.input?.safeParse(parsed.data.payload);
  if (payload && !payload.success) return { ok: false, problem: `The change is not valid: ${payload.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ')}` };
  return { ok: true, request: parsed.data };
}
