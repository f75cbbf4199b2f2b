/**
 * A ddclient.conf for DynDNS2 (the "Home router or ddclient" purpose): ddclient 3.10 (Debian 12) and later read it.
 * The dashboard shows it once with the key; the service's ddclient test runs the real ddclient on it.
 */
export interface DdclientSettings {
  /** The service's HTTP origin as the home machine reaches it (`http://host:port`, `https://host`). */
  serviceOrigin: string;
  /** The key's id (the login) and the key itself (the password). */
  keyId: string;
  key: string;
  /** The hostnames to keep at the home address, fully qualified. */
  hostnames: readonly string[];
  /**
   * How ddclient finds the address: by asking a web service what the router's public IPv4 is (the default), or by
   * running a program that prints it (a script, a test; ddclient runs the path alone, without arguments).
   */
  address?: { kind: 'web' } | { kind: 'command'; program: string };
}

/** ddclient.conf's text: one account, the hostnames on the last line; a daemon checking every five minutes. */
export function ddclientConf(settings: DdclientSettings): string {
  const origin = new URL(settings.serviceOrigin);
  const ssl = origin.protocol === 'https:';
  const address = settings.address ?? { kind: 'web' };
  const source =
    address.kind === 'web'
      ? ['usev4=webv4', 'webv4=ipify-ipv4']
      : ['usev4=cmdv4', `cmdv4=${quoted(address.program)}`];
  return [
    '# ddclient.conf: keeps these names at this network\'s address through DynDNS2.',
    '# The password is an API key that may only set A and AAAA records at these names: keep this file private (chmod 600).',
    'daemon=300',
    `ssl=${ssl ? 'yes' : 'no'}`,
    // The address comes from usev4 alone: without this, ddclient 3.10 also tries its old default (use=ip) and warns.
    'use=no',
    ...source,
    'protocol=dyndns2',
    `server=${origin.host}`,
    `login=${settings.keyId}`,
    `password=${quoted(settings.key)}`,
    settings.hostnames.join(','),
    '',
  ].join('\n');
}

/** A value as ddclient's parser reads it back whole: single-quoted when it holds a space, a comma or a quote (a quote closes, a backslash escapes). */
function quoted(value: string): string {
  return /^[^\s,'"\\#]+$/.test(value) ? value : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "'\\''")}'`;
}
