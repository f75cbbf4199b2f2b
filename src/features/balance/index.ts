// The balance feature's public face: other features read the one cached balance through these.
export { balanceKey, balanceQuery } from './api/get-balance.ts';
