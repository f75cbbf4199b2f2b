import * as siwe from '../wire/siwe.ts';
import { op } from './define.ts';

export const siweOperations = {
  getSiweAllowedChains: op({ id: 'getSiweAllowedChains', method: 'GET', path: '/siwe/allowed-chains', tag: 'oauth', summary: 'Chain ids a SIWE message may name', auth: 'none', output: siwe.allowedChains }),
  getSiweNonce: op({ id: 'getSiweNonce', method: 'GET', path: '/siwe/nonce', tag: 'oauth', summary: 'A single-use SIWE nonce (300 s)', auth: 'none', input: siwe.nonceQuery, output: siwe.nonceResult }),
  prepareSiweMessage: op({ id: 'prepareSiweMessage', method: 'GET', path: '/siwe/message', tag: 'oauth', summary: 'The EIP-4361 message to sign', auth: 'none', input: siwe.messageQuery, output: siwe.messageResult }),
  verifySiwe: op({ id: 'verifySiwe', method: 'POST', path: '/siwe/verify', tag: 'oauth', summary: 'Exchange a signed SIWE message for a 12 h session token', auth: 'none', input: siwe.verifyInput, output: siwe.verifyResult, changes: { account: ['session'] } }),
};
