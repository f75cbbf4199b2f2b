import * as doors from '../wire/doors.ts';
import { op } from './define.ts';

export const doorOperations = {
  getServiceDoors: op({
    id: 'getServiceDoors', method: 'GET', path: '/doors', tag: 'user',
    summary: 'Where this service\u2019s standard doors open: the name server that takes DNS UPDATE (host and port) and DynDNS2\u2019s path (ours)',
    auth: 'none', output: doors.serviceDoors,
  }),
};
