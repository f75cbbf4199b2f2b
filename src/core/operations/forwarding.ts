import * as forwarding from '../wire/forwarding.ts';
import { f, op } from './define.ts';

const FORWARDING_FIELDS = ['enabled', 'targetUrl', 'statusCode', 'keepPath'] as const;

export const forwardingOperations = {
  getForwarding: op({ id: 'getForwarding', method: 'GET', path: '/domain-config/forwarding', tag: 'domain-config', summary: 'A domain\u2019s URL forwarding (ours)', auth: 'none', input: forwarding.forwardingQuery, output: forwarding.forwarding }),

  setForwarding: op({
    id: 'setForwarding', method: 'PUT', path: '/domain-config/forwarding', tag: 'domain-config', summary: 'Forward a domain to a URL, or stop (ours); turns parking off', auth: 'write', input: forwarding.setForwardingInput, output: forwarding.forwarding,
    signed: {
      structs: { SetForwarding: [f('normalizedDomainName', 'string'), f('enabled', 'bool'), f('targetUrl', 'string'), f('statusCode', 'uint256'), f('keepPath', 'bool')] },
      accepted: ['SetForwardingEnvelope'],
      matches: ({ payload, entry }) => {
        const after = (entry.forwarding?.after ?? {}) as Record<string, unknown>;
        return FORWARDING_FIELDS.flatMap((field) => {
          const signedValue = field === 'statusCode' ? Number(payload[field]) : payload[field];
          return after[field] !== signedValue ? [`the signature sets forwarding ${field} to ${JSON.stringify(signedValue)}, the entry to ${JSON.stringify(after[field])}`] : [];
        });
      },
      notice: (input: forwarding.SetForwardingInput) => `Forward ${input.normalizedDomainName} to ${input.targetUrl}, status ${input.statusCode} (SetForwarding)`,
    },
    zone: { of: (input: forwarding.SetForwardingInput) => input.normalizedDomainName, change: 'content' },
    // Forwarding turned on for a parked domain unparks it too: the entry is about forwarding.
    history: {
      changes: [],
      forwarding: true,
      parking: true,
      words: 'Changed forwarding',
      title: (entry) => {
        const to = entry.forwarding?.after;
        return to ? (to.enabled ? `Forwarded to ${to.targetUrl}` : 'Stopped forwarding') : undefined;
      },
    },
  }),

  tryForwarding: op({ id: 'tryForwarding', method: 'GET', path: '/domain-config/forwarding/try', tag: 'domain-config', summary: 'Ask the service\u2019s forwarder for a path of the domain and answer the redirect it gave (ours)', auth: 'none', input: forwarding.tryForwardingQuery, output: forwarding.forwardingTrial }),
};
