import * as dnssec from '../wire/dnssec.ts';
import { f, op } from './define.ts';

export const dnssecOperations = {
  getDnssec: op({ id: 'getDnssec', method: 'GET', path: '/dns/dnssec', tag: 'domain-config', summary: 'Whether a zone is signed (DNSSEC), and its DS record', auth: 'none', input: dnssec.dnssecQuery, output: dnssec.dnssecState }),

  toggleDnssec: op({
    id: 'toggleDnssec', method: 'PUT', path: '/dns/dnssec', tag: 'domain-config', summary: 'Sign a zone (DNSSEC) or stop signing it', auth: 'write', input: dnssec.toggleDnssecInput, output: dnssec.dnssecState,
    signed: {
      structs: { ToggleDnssec: [f('normalizedDomainName', 'string'), f('enabled', 'bool')] },
      accepted: ['ToggleDnssecEnvelope'],
      matches: ({ payload, entry }) => {
        const enabled = payload.enabled === true;
        return entry.dnssec?.after !== enabled ? [`the signature turns DNSSEC ${enabled ? 'on' : 'off'}, the entry turns it ${entry.dnssec?.after ? 'on' : 'off'}`] : [];
      },
      notice: (input: dnssec.ToggleDnssecInput) => `Turn DNSSEC ${input.enabled ? 'on' : 'off'} for ${input.normalizedDomainName} (ToggleDnssec)`,
    },
    zone: { of: (input: dnssec.ToggleDnssecInput) => input.normalizedDomainName, change: 'content' },
    history: { changes: [], dnssec: true, words: 'Changed DNSSEC' },
  }),
};
