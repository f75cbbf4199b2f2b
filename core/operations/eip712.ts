import { z } from 'zod';
import * as eip712 from '../wire/eip712.ts';
import { op } from './define.ts';

export const eip712Operations = {
  getEip712Domain: op({ id: 'getEip712Domain', method: 'GET', path: '/eip712/domain', tag: 'eip712', summary: 'The EIP-712 signing domain', auth: 'none', input: z.object({ chain: z.string().optional() }), output: eip712.signingDomain }),
  getAllEip712Types: op({ id: 'getAllEip712Types', method: 'GET', path: '/eip712/types', tag: 'eip712', summary: 'The full EIP-712 type registry', auth: 'none', output: eip712.typeRegistry }),
  getEip712TypesForMethod: op({ id: 'getEip712TypesForMethod', method: 'GET', path: '/eip712/types-for-method', tag: 'eip712', summary: 'Accepted primary types and their structs for one operation', auth: 'none', input: z.object({ method: z.string().min(1, 'Name an operation id') }), output: eip712.typesForMethod }),
};
