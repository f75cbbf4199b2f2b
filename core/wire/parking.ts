import { z } from 'zod';
import { zoneName } from './common.ts';

export const parkDomainInput = z.object({ normalizedDomainName: zoneName, overrideExistingRecords: z.boolean() });
export type ParkDomainInput = z.infer<typeof parkDomainInput>;
export const toggleParkingInput = z.object({
  normalizedDomainName: zoneName,
  enableParking: z.boolean(),
  overrideExistingRecords: z.boolean(),
});
export type ToggleParkingInput = z.infer<typeof toggleParkingInput>;
export const parkedQuery = z.object({ normalizedDomainName: zoneName });
export const parkedStatus = z.object({ parked: z.boolean() });
