/**
 * The configurations of the certificate tools that speak DNS UPDATE (RFC 2136) with a key's TSIG form, for the
 * "Certificates" purpose: certbot with certbot-dns-rfc2136, lego (and Traefik, which runs lego), Caddy with its
 * rfc2136 module, cert-manager. Pure text, shown once by the dashboard with the secret in it.
 */

/** Where DNS UPDATE goes: the service's name server. */
export interface UpdateServer {
  host: string;
  port: number;
}

/** A key's TSIG form as createApiKey answers it once. */
export interface TsigKey {
  keyName: string;
  algorithm: 'hmac-sha256';
  secret: string;
}

export interface CertificateSettings {
  server: UpdateServer;
  tsig: TsigKey;
  /** The names the certificate covers (`example.com`, `www.example.com`, `*.example.com`). */
  names: readonly string[];
  /** The ACME account's contact; a placeholder the person replaces when absent. */
  email?: string;
}

const EMAIL_PLACEHOLDER = 'you@example.com';
/** Let's Encrypt's production directory: what these tools use unless told otherwise. */
const LETS_ENCRYPT = 'https://acme-v02.api.letsencrypt.org/directory';

/** `host:port`, an IPv6 host in brackets. */
const hostPort = (server: UpdateServer) => `${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`;

/** certbot's credentials file for `--dns-rfc2136-credentials` (certbot reads it with configobj; keep it chmod 600). */
export function certbotCredentials({ server, tsig }: Pick<CertificateSettings, 'server' | 'tsig'>): string {
  return [
    '# certbot-dns-rfc2136 credentials: a key that may only write the ACME challenge records (TXT) of these names.',
    `dns_rfc2136_server = ${server.host}`,
    `dns_rfc2136_port = ${server.port}`,
    `dns_rfc2136_name = ${tsig.keyName}`,
    `dns_rfc2136_secret = ${tsig.secret}`,
    'dns_rfc2136_algorithm = HMAC-SHA256',
    // The service answers the challenge the moment UPDATE is acknowledged: no need to wait a minute.
    'dns_rfc2136_sign_query = true',
    '',
  ].join('\n');
}

/** The certbot command that obtains the certificate with that file (saved as `credentialsPath`). */
export function certbotCommand(settings: Pick<CertificateSettings, 'names' | 'email'>, credentialsPath = '~/.secrets/namefi-rfc2136.ini'): string {
  const domains = settings.names.map((name) => `-d '${name}'`).join(' ');
  return `certbot certonly --dns-rfc2136 --dns-rfc2136-credentials ${credentialsPath} --dns-rfc2136-propagation-seconds 5 --email ${settings.email ?? EMAIL_PLACEHOLDER} --agree-tos ${domains}`;
}

/** lego's environment for its rfc2136 provider (Traefik's DNS challenge reads the same variables), and its command. */
export function legoEnvironment({ server, tsig }: Pick<CertificateSettings, 'server' | 'tsig'>): string {
  return [
    `RFC2136_NAMESERVER=${hostPort(server)}`,
    // lego (and so Traefik) writes the algorithm as a DNS name, with its dot.
    'RFC2136_TSIG_ALGORITHM=hmac-sha256.',
    `RFC2136_TSIG_KEY=${tsig.keyName}`,
    `RFC2136_TSIG_SECRET=${tsig.secret}`,
    // lego otherwise waits a minute between names; the service answers a change at once.
    'RFC2136_SEQUENCE_INTERVAL=1',
    'RFC2136_PROPAGATION_TIMEOUT=60',
    '',
  ].join('\n');
}

export function legoCommand(settings: Pick<CertificateSettings, 'names' | 'email'>): string {
  return `lego --email ${settings.email ?? EMAIL_PLACEHOLDER} --dns rfc2136 ${settings.names.map((name) => `--domains '${name}'`).join(' ')} run`;
}

/** Caddy (built with the caddy-dns/rfc2136 module): the global `acme_dns` option of a Caddyfile. */
export function caddyGlobalOptions({ server, tsig }: Pick<CertificateSettings, 'server' | 'tsig'>): string {
  return ['{', '\tacme_dns rfc2136 {', `\t\tkey_name "${tsig.keyName}"`, '\t\tkey_alg "hmac-sha256"', `\t\tkey "${tsig.secret}"`, `\t\tserver "${hostPort(server)}"`, '\t}', '}', ''].join('\n');
}

/** Names Kubernetes accepts (RFC 1123 labels) for the Secret and the Issuer, made from the zone. */
const kubeName = (text: string) => text.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50);

/** cert-manager: the Secret holding the TSIG secret, and an Issuer whose DNS-01 solver sends UPDATE with it. */
export function certManagerIssuer(settings: CertificateSettings & { zoneName: string; namespace?: string }): string {
  const base = kubeName(`namefi-${settings.zoneName}`);
  const namespace = settings.namespace ?? 'default';
  return [
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    `  name: ${base}-tsig`,
    `  namespace: ${namespace}`,
    'type: Opaque',
    'stringData:',
    `  tsig-secret: "${settings.tsig.secret}"`,
    '---',
    'apiVersion: cert-manager.io/v1',
    'kind: Issuer',
    'metadata:',
    `  name: ${base}`,
    `  namespace: ${namespace}`,
    'spec:',
    '  acme:',
    `    server: ${LETS_ENCRYPT}`,
    `    email: ${settings.email ?? EMAIL_PLACEHOLDER}`,
    '    privateKeySecretRef:',
    `      name: ${base}-account`,
    '    solvers:',
    '      - dns01:',
    '          rfc2136:',
    `            nameserver: "${hostPort(settings.server)}"`,
    `            tsigKeyName: "${settings.tsig.keyName}"`,
    '            tsigAlgorithm: HMACSHA256',
    '            tsigSecretSecretRef:',
    `              name: ${base}-tsig`,
    '              key: tsig-secret',
    '        selector:',
    '          dnsNames:',
    ...settings.names.map((name) => `            - "${name}"`),
    '',
  ].join('\n');
}
