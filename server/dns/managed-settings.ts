import type { ManagedSettings } from '#core/dns/managed.ts';
import type { Config } from '../config.ts';

/** The service's settings that shape managed records. */
export function managedSettings(config: Pick<Config, 'FORWARD_ADDRESSES'>): ManagedSettings {
  return { forwardAddresses: config.FORWARD_ADDRESSES };
}
