import { z } from 'zod';

/**
 * Where the standard doors open on this service (contract: The standard doors), for the configurations the dashboard
 * writes: DNS UPDATE's name server (RFC 2136 with a key's TSIG form, also keyed transfers) and DynDNS2's path on
 * the HTTP port. `dns` is null when the service answers no DNS (DNS_PORT unset); its `host` is null when the service
 * listens on every address, so a client reaches it by the name it reaches the API by.
 */
export const serviceDoors = z.object({
  dns: z.object({ host: z.string().nullable(), port: z.number().int().min(1).max(65535) }).nullable(),
  dynDns: z.object({ path: z.string() }),
});
export type ServiceDoors = z.infer<typeof serviceDoors>;
