import { z } from 'zod';
import { safeText } from '../wire/text.ts';
import * as orders from '../wire/orders.ts';
import { f, op } from './define.ts';
import { createdRecords } from './records.ts';

/** A registration changes its zone when its order finishes (parking it, or applying its records), not at the request. */
const zoneWhenOrdered = { of: (input: orders.RegisterDomainInput) => input.normalizedDomainName, change: 'content', when: 'order' } as const;

export const orderOperations = {
  registerDomain: op({
    id: 'registerDomain', method: 'POST', path: '/orders/register-domain', tag: 'orders', summary: 'Order a registration', auth: 'write', input: orders.registerDomainInput, output: orders.createdOrder, errors: [402, 409],
    signed: {
      structs: {
        InstantRegisterDomain: [f('normalizedDomainName', 'string'), f('durationInYears', 'uint256'), f('nftReceivingWallet', 'NftReceivingWallet')],
        InstantRegisterDomainDefaultWallet: [f('normalizedDomainName', 'string'), f('durationInYears', 'uint256')],
      },
      // The default-wallet type first: a registration without a receiving wallet signs none, rather than an empty one.
      accepted: ['InstantRegisterDomainDefaultWalletEnvelope', 'InstantRegisterDomainEnvelope'],
    },
    zone: zoneWhenOrdered,
    history: { changes: [], parking: true, words: 'Registration' },
  }),

  registerWithRecords: op({
    id: 'registerWithRecords', method: 'POST', path: '/orders/register-domain/records', tag: 'orders', summary: 'Order a registration with initial records', auth: 'write', input: orders.registerWithRecordsInput, output: orders.createdOrder, errors: [402, 409],
    signed: {
      structs: { RegisterDomainWithRecords: [f('normalizedDomainName', 'string'), f('durationInYears', 'uint256'), f('records', 'CreateZoneRecord[]')] },
      accepted: ['RegisterDomainWithRecordsEnvelope'],
      matches: (c) => createdRecords(c),
    },
    zone: zoneWhenOrdered,
    history: { changes: ['create'], parking: true, words: 'Records of the registration' },
  }),

  renewDomain: op({
    id: 'renewDomain', method: 'POST', path: '/orders/renew-domain', tag: 'orders', summary: 'Order a renewal: any wallet may pay for any registered name (ours)', auth: 'write', input: orders.renewDomainInput, output: orders.createdOrder, errors: [402, 404, 409],
    signed: {
      structs: { RenewDomain: [f('normalizedDomainName', 'string'), f('durationInYears', 'uint256')] },
      accepted: ['RenewDomainEnvelope'],
      notice: (input: orders.RenewDomainInput) => `Renew ${input.normalizedDomainName} for ${input.durationInYears} year${input.durationInYears === 1 ? '' : 's'}, paid from your credit (RenewDomain)`,
    },
    changes: { of: (input: orders.RenewDomainInput) => input.normalizedDomainName, domain: ['registration'], account: ['orders'] },
  }),

  getRenewalQuote: op({ id: 'getRenewalQuote', method: 'GET', path: '/orders/renew-domain/quote', tag: 'orders', summary: 'What renewing a registered name costs a year, its expiry and how far a renewal may take it (ours)', auth: 'none', input: orders.renewalQuoteQuery, output: orders.renewalQuote, errors: [404] }),

  getOrder: op({ id: 'getOrder', method: 'GET', path: '/orders/{orderId}', tag: 'orders', summary: 'One order with its items and payments', auth: 'siwe', params: z.object({ orderId: safeText() }), output: orders.orderDetails, errors: [404] }),
};
