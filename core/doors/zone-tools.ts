import type { TsigKey, UpdateServer } from './certificates.ts';

/**
 * The configurations of the tools that manage a whole zone over DNS UPDATE (RFC 2136) with a key's TSIG form, for the
 * "Kubernetes (external-dns)" and "Terraform" purposes. Pure text, shown once by the dashboard with the secret in it.
 */

export interface ZoneToolSettings {
  server: UpdateServer;
  tsig: TsigKey;
  zoneName: string;
}

/**
 * external-dns's arguments for its rfc2136 provider: it lists the zone by a keyed transfer (AXFR signed with the
 * same key, which a key covering the whole zone may make) and writes by UPDATE. One flag a line, as a Deployment's
 * `args:` holds them.
 */
export function externalDnsArgs({ server, tsig, zoneName }: ZoneToolSettings): string {
  return [
    '--provider=rfc2136',
    `--rfc2136-host=${server.host}`,
    `--rfc2136-port=${server.port}`,
    `--rfc2136-zone=${zoneName}`,
    `--rfc2136-tsig-keyname=${tsig.keyName}`,
    `--rfc2136-tsig-secret=${tsig.secret}`,
    '--rfc2136-tsig-secret-alg=hmac-sha256',
    '--rfc2136-tsig-axfr',
    `--domain-filter=${zoneName}`,
    // Its ownership records (TXT) say which records this cluster made, so it never deletes the others.
    '--registry=txt',
    `--txt-owner-id=${zoneName.replace(/[^a-z0-9-]+/gi, '-')}-cluster`,
    '--policy=upsert-only',
    '',
  ].join('\n');
}

/** Terraform's `hashicorp/dns` provider, sending UPDATE with the key, and one record it manages as an example. */
export function terraformProvider({ server, tsig, zoneName }: ZoneToolSettings): string {
  return [
    'terraform {',
    '  required_providers {',
    '    dns = {',
    '      source  = "hashicorp/dns"',
    '      version = "~> 3.4"',
    '    }',
    '  }',
    '}',
    '',
    'provider "dns" {',
    '  update {',
    `    server        = "${server.host}"`,
    `    port          = ${server.port}`,
    `    key_name      = "${tsig.keyName}"`,
    '    key_algorithm = "hmac-sha256"',
    // The secret in the file keeps the example whole; a real setup reads it from a variable or DNS_UPDATE_KEYSECRET.
    `    key_secret    = "${tsig.secret}"`,
    '  }',
    '}',
    '',
    '# An example: the address of www, kept by Terraform.',
    'resource "dns_a_record_set" "www" {',
    `  zone      = "${zoneName}."`,
    '  name      = "www"',
    '  addresses = ["192.0.2.10"]',
    '  ttl       = 300',
    '}',
    '',
  ].join('\n');
}
