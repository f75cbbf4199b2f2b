import type { MessageResult } from '#core/wire/siwe.ts';

export interface SiweExpectation {
  address: string;
  nonce: string;
  chainId: number;
  /** host[:port] the message must name: this site, or the SIWE domain configured for the service. */
  domain: string;
}

/** Reads the fields of an EIP-4361 text that decide whom the signature is good for. */
export function parseSiweText(text: string): { domain?: string; address?: string; chainId?: number; nonce?: string; uri?: string } {
  const lines = text.split('\n');
  const header = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(\S+) wants you to sign in with your Ethereum account:$/.exec(lines[0] ?? '');
  const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2).trim();
  const chain = field('Chain ID');
  return {
    domain: header?.[1],
    address: lines[1]?.trim(),
    chainId: chain && /^\d+$/.test(chain) ? Number(chain) : undefined,
    nonce: field('Nonce'),
    uri: field('URI'),
  };
}

/**
 * What is wrong with a prepared SIWE message, in words; empty when it names this site, this address,
 * this nonce and this chain. The text is what the wallet signs, so the text is checked, and the
 * structured copy (sent back to /siwe/verify) must agree with it.
 */
export function siweMessageProblems(result: MessageResult, expected: SiweExpectation): string[] {
  const problems: string[] = [];
  const text = parseSiweText(result.messageString);
  const same = (a?: string, b?: string) => !!a && !!b && a.toLowerCase() === b.toLowerCase();
  if (!same(text.domain, expected.domain) || !same(result.message.domain, expected.domain)) {
    problems.push(`it names ${text.domain ?? result.message.domain ?? 'no site'} instead of ${expected.domain}`);
  }
  if (!same(text.address, expected.address) || !same(result.message.address, expected.address)) {
    problems.push('it names a different address than your wallet');
  }
  if (text.nonce !== expected.nonce || result.message.nonce !== expected.nonce) {
    problems.push('it carries a different nonce than the one just issued');
  }
  if (text.chainId !== expected.chainId || result.message.chainId !== expected.chainId) {
    problems.push(`it names chain ${text.chainId ?? result.message.chainId} instead of ${expected.chainId}`);
  }
  return problems;
}

export class SiweMessageMismatchError extends Error {
  problems: string[];
  /** The host the service signs in for, when that (not this page's host) is what differs. */
  serviceDomain?: string;
  constructor(problems: string[], serviceDomain?: string) {
    super(`The sign-in message was not signed because ${problems.join('; ')}.`);
    this.name = 'SiweMessageMismatchError';
    this.problems = problems;
    this.serviceDomain = serviceDomain;
  }
}

/** The host a prepared message names when it is not the expected one: the address to sign in at instead. */
export function otherSignInHost(result: MessageResult, expected: Pick<SiweExpectation, 'domain'>): string | undefined {
  const named = parseSiweText(result.messageString).domain;
  if (!named || named !== result.message.domain) return undefined;
  return named.toLowerCase() === expected.domain.toLowerCase() ? undefined : named;
}
