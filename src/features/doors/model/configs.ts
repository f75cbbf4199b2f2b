import { caddyGlobalOptions, certbotCommand, certbotCredentials, certManagerIssuer, legoCommand, legoEnvironment, type UpdateServer } from '#core/doors/certificates.ts';
import { ddclientConf } from '#core/doors/ddclient.ts';
import { externalDnsArgs, terraformProvider } from '#core/doors/zone-tools.ts';
import type { ServiceDoors } from '#core/wire/doors.ts';
import type { CreatedApiKey } from '#core/wire/user.ts';
import type { Purpose } from './purposes.ts';

/** One text to copy: what it is, where it goes, and the text itself (the key's secret in it, shown once). */
export interface ConfigBlock {
  id: string;
  title: string;
  where: string;
  text: string;
}

/**
 * The name server DNS UPDATE goes to: the host the service names, else the one the dashboard reaches it by (a
 * service listening on every address), written as an address where it is the loopback name (certbot takes no host
 * name). Null when the service answers no DNS.
 */
export function updateServerOf(doors: ServiceDoors, apiBaseUrl: string): UpdateServer | null {
  if (!doors.dns) return null;
  const host = doors.dns.host ?? new URL(apiBaseUrl).hostname.replace(/^\[(.*)\]$/, '$1');
  return { host: host === 'localhost' ? '127.0.0.1' : host, port: doors.dns.port };
}

export interface ConfigContext {
  zoneName: string;
  /** The names the purpose covers, fully qualified: the certificate's names, or the router's hostnames. */
  names: string[];
  created: CreatedApiKey;
  server: UpdateServer | null;
  /** The service's HTTP origin (DynDNS2's). */
  origin: string;
}

/** The configurations of the purpose's tools with the new key, in the order a person reads them. */
export function configsFor(purpose: Purpose, context: ConfigContext): ConfigBlock[] {
  const { zoneName, names, created, server, origin } = context;
  if (purpose === 'router') {
    const ddclient = ddclientConf({ serviceOrigin: origin, keyId: created.id, key: created.key, hostnames: names });
    const host = new URL(origin);
    const fields = [`Protocol: DynDNS2 (dyndns2, "custom" or "DynDNS")`, `Server: ${host.host}`, `Username: ${created.id}`, `Password: ${created.key}`, `Hostname: ${names.join(',')}`, ''].join('\n');
    return [
      { id: 'ddclient', title: 'ddclient.conf', where: 'Save as /etc/ddclient.conf (chmod 600), then restart ddclient.', text: ddclient },
      { id: 'router', title: 'A router’s DynDNS settings', where: 'The fields of a router’s or inadyn’s DynDNS page.', text: fields },
    ];
  }
  const tsig = created.tsig;
  if (!tsig || !server) return [];
  if (purpose === 'kubernetes') {
    return [{ id: 'external-dns', title: 'external-dns arguments', where: 'The args of the external-dns container (better: the secret from a Kubernetes Secret through an env var).', text: externalDnsArgs({ server, tsig, zoneName }) }];
  }
  if (purpose === 'terraform') {
    return [{ id: 'terraform', title: 'Terraform provider', where: 'A .tf file of the configuration (better: key_secret from a variable).', text: terraformProvider({ server, tsig, zoneName }) }];
  }
  const cert = { server, tsig, names };
  return [
    { id: 'certbot-credentials', title: 'certbot credentials file', where: 'Save as ~/.secrets/namefi-rfc2136.ini (chmod 600).', text: certbotCredentials(cert) },
    { id: 'certbot-command', title: 'certbot command', where: 'Run it once; certbot renews with the same settings.', text: certbotCommand(cert) },
    { id: 'lego', title: 'lego (and Traefik) environment', where: 'Environment variables of lego or Traefik (provider rfc2136), then the command.', text: `${legoEnvironment(cert)}\n${legoCommand(cert)}\n` },
    { id: 'caddy', title: 'Caddy (with the rfc2136 module)', where: 'The global options at the top of the Caddyfile.', text: caddyGlobalOptions(cert) },
    { id: 'cert-manager', title: 'cert-manager Issuer and its Secret', where: 'kubectl apply -f this file, then name the Issuer in a Certificate.', text: certManagerIssuer({ ...cert, zoneName }) },
  ];
}
