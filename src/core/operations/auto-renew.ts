import * as autoRenew from '../wire/auto-renew.ts';
import { f, op } from './define.ts';

/**
 * Auto-renew (ours; production's domain-config group has a switch with no published shape). The switch changes
 * nothing the zone answers, so it declares no `zone` and writes no history entry: an automatic renewal's effects
 * will be the zone's entries, with the service as their actor.
 */
export const autoRenewOperations = {
  getAutoRenew: op({ id: 'getAutoRenew', method: 'GET', path: '/domain-config/auto-renew', tag: 'domain-config', summary: 'Whether a domain renews itself before it expires, and when it next tries (ours)', auth: 'none', input: autoRenew.autoRenewQuery, output: autoRenew.autoRenew, errors: [404] }),

  setAutoRenew: op({
    id: 'setAutoRenew', method: 'PUT', path: '/domain-config/auto-renew', tag: 'domain-config', summary: 'Switch a domain\u2019s auto-renew on or off, and for how many years it renews (ours); owner only', auth: 'write', input: autoRenew.setAutoRenewInput, output: autoRenew.autoRenew,
    errors: [403, 404],
    signed: {
      structs: { SetAutoRenew: [f('normalizedDomainName', 'string'), f('enabled', 'bool'), f('durationInYears', 'uint256')] },
      accepted: ['SetAutoRenewEnvelope'],
      notice: (input: autoRenew.SetAutoRenewInput) =>
        input.enabled
          ? `Renew ${input.normalizedDomainName} automatically, ${input.durationInYears} year${input.durationInYears === 1 ? '' : 's'} at a time, from your credit (SetAutoRenew)`
          : `Stop renewing ${input.normalizedDomainName} automatically (SetAutoRenew)`,
    },
  }),
};
