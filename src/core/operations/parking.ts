import { success } from '../wire/common.ts';
import * as parking from '../wire/parking.ts';
import { f, op, type PayloadCheck } from './define.ts';

/** The entry parks or unparks as signed, and deletes records only when parking was signed to replace them. */
function parkingAsSigned(c: PayloadCheck): string[] {
  const problems: string[] = [];
  const parked = c.struct === 'ParkDomain' ? true : c.payload.enableParking === true;
  const after = c.entry.parking?.after;
  if (after !== parked) problems.push(`the signature ${parked ? 'parks' : 'unparks'} the domain, the entry ${after ? 'parks' : 'unparks'} it`);
  if (c.deleted.length > 0 && !(parked && c.payload.overrideExistingRecords === true)) problems.push('the entry deletes records the signature did not ask to replace');
  return problems;
}

const zoneOfDomain = { of: (input: { normalizedDomainName: string }) => input.normalizedDomainName, change: 'content' } as const;

export const parkingOperations = {
  parkDomain: op({
    id: 'parkDomain', method: 'POST', path: '/dns/park', tag: 'domain-config', summary: 'Park a domain', auth: 'write', input: parking.parkDomainInput, output: success,
    signed: {
      structs: { ParkDomain: [f('normalizedDomainName', 'string'), f('overrideExistingRecords', 'bool')] },
      accepted: ['ParkDomainEnvelope'],
      matches: parkingAsSigned,
    },
    zone: zoneOfDomain,
    history: { changes: ['delete'], parking: true, forwarding: true, words: 'Parked the domain' },
  }),

  toggleDomainParking: op({
    id: 'toggleDomainParking', method: 'PUT', path: '/dns/park', tag: 'domain-config', summary: 'Park or unpark a domain', auth: 'write', input: parking.toggleParkingInput, output: success,
    signed: {
      structs: { ToggleDomainParking: [f('normalizedDomainName', 'string'), f('enableParking', 'bool'), f('overrideExistingRecords', 'bool')] },
      accepted: ['ToggleDomainParkingEnvelope'],
      matches: parkingAsSigned,
      notice: (input: parking.ToggleParkingInput) => `${input.enableParking ? 'Park' : 'Unpark'} ${input.normalizedDomainName} (ToggleDomainParking)`,
    },
    zone: zoneOfDomain,
    history: { changes: ['delete'], parking: true, forwarding: true, words: 'Changed parking' },
  }),

  isDomainParked: op({ id: 'isDomainParked', method: 'GET', path: '/dns/parked', tag: 'domain-config', summary: 'Whether a domain is parked', auth: 'none', input: parking.parkedQuery, output: parking.parkedStatus }),
};
