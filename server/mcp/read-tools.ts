import { z } from 'zod';
import { zoneName } from '#core/wire/common.ts';
import type { RenewalQuote } from '#core/wire/orders.ts';
import type { Forwarding } from '#core/wire/forwarding.ts';
import type { DnssecState } from '#core/wire/dnssec.ts';
import type { SigningDomain, TypesForMethod } from '#core/wire/eip712.ts';
import { operations, signedOperations, noticeOf, type SignedOperationId } from '#core/operations/index.ts';
import { buildEnvelope, envelopeTypedData } from '#core/eip712/envelope.ts';
import { chooseSigning } from '#core/eip712/signing-choice.ts';
import { encodeAgentRequest } from '#core/agent-sign.ts';
import { READ, ToolRefusal, call, type Tool } from './tool-kit.ts';

const domainOutput = z.object({
  domain: z.string(),
  owner: z.string(),
  expiresAt: z.string(),
  status: z.enum(['active', 'redemption']),
  parked: z.boolean(),
  forwarding: z.object({ enabled: z.boolean(), targetUrl: z.string(), statusCode: z.number(), keepPath: z.boolean() }),
  dnssec: z.object({ enabled: z.boolean(), dsRecords: z.array(z.string()) }),
  autoRenew: z.object({ enabled: z.boolean(), durationInYears: z.number(), nextAttemptAt: z.string().nullable() }),
  renewalPriceInUSDCentsPerYear: z.number(),
});

export const getDomain: Tool = {
  name: 'get_domain',
  title: 'Get a domain',
  description:
    'One registered domain: its owner, expiry, status (active, or in redemption after expiry), parking, forwarding, DNSSEC and auto-renew, and its yearly renewal price ' +
    '(operations getRenewalQuote, isDomainParked, getForwarding, getDnssec, getAutoRenew). Reading changes nothing: no need to ask the person first.',
  input: z.object({ domain: zoneName }),
  output: domainOutput,
  annotations: READ,
  async run(args, ctx) {
    const domain = (args as { domain: string }).domain;
    const q = { normalizedDomainName: domain };
    const [renewal, parked, forwarding, dnssec, autoRenew] = await Promise.all([
      call(ctx, 'getRenewalQuote', q) as Promise<RenewalQuote>,
      call(ctx, 'isDomainParked', q) as Promise<{ parked: boolean }>,
      call(ctx, 'getForwarding', q) as Promise<Forwarding>,
      call(ctx, 'getDnssec', q) as Promise<DnssecState>,
      call(ctx, 'getAutoRenew', q) as Promise<{ enabled: boolean; durationInYears: number; nextAttemptAt: string | null }>,
    ]);
    return {
      domain,
      owner: renewal.ownerAddress,
      expiresAt: renewal.expiresAt,
      status: renewal.restoreFeeInUSDCents === undefined ? 'active' : 'redemption',
      parked: parked.parked,
      forwarding: { enabled: forwarding.enabled, targetUrl: forwarding.targetUrl, statusCode: forwarding.statusCode, keepPath: forwarding.keepPath },
      dnssec: { enabled: dnssec.enabled, dsRecords: dnssec.dsRecords },
      autoRenew: { enabled: autoRenew.enabled, durationInYears: autoRenew.durationInYears, nextAttemptAt: autoRenew.nextAttemptAt },
      renewalPriceInUSDCentsPerYear: renewal.renewalPriceInUSDCentsPerYear,
    };
  },
};

const signable = signedOperations().map((o) => o.id) as [SignedOperationId, ...SignedOperationId[]];

export const prepareSignature: Tool = {
  name: 'prepare_signature',
  title: 'Prepare a change for the person’s wallet to sign',
  description:
    'For a change this key may not make (or made without a key): answers the EIP-712 typed data to sign and a link to the dashboard page that shows the change ' +
    'in words and asks the person’s wallet to sign and send it. The agent never holds the wallet’s key and nothing happens until the person signs. ' +
    'Give the person the link and the words; the dashboard stamps its own timestamp and nonce when it signs.',
  input: z.object({
    operationId: z.enum(signable).describe('The signed operation, e.g. batchCreateDnsRecords, toggleDomainParking, setForwarding, toggleDnssec, setAutoRenew, renewDomain'),
    payload: z.record(z.string(), z.unknown()).describe('The operation’s input, as its API takes it'),
  }),
  output: z.object({
    operationId: z.string(),
    words: z.string(),
    link: z.string(),
    primaryType: z.string(),
    typedData: z.object({ domain: z.record(z.string(), z.unknown()), types: z.record(z.string(), z.unknown()), primaryType: z.string(), message: z.record(z.string(), z.unknown()) }),
  }),
  annotations: READ,
  async run(args, ctx) {
    const { operationId, payload } = args as { operationId: SignedOperationId; payload: Record<string, unknown> };
    const input = (operations[operationId] as { input?: z.ZodType }).input;
    const parsed = input?.safeParse(payload);
    if (parsed && !parsed.success) {
      const fields: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (fields[['payload', ...issue.path].join('.')] ??= []).push(issue.message);
      throw new ToolRefusal(`The payload does not fit ${operationId}: ${parsed.error.issues.map((i) => `${['payload', ...i.path].join('.')}: ${i.message}`).join('; ')}`, fields);
    }
    const [domain, types] = await Promise.all([
      call(ctx, 'getEip712Domain', undefined) as Promise<SigningDomain>,
      call(ctx, 'getEip712TypesForMethod', { method: operationId }) as Promise<TypesForMethod>,
    ]);
    const choice = chooseSigning(types, payload);
    if (choice.how !== 'signature') throw new ToolRefusal(`${operationId} cannot be signed with this payload${choice.how === 'cannot' ? `: ${choice.unsigned.join(', ')} would go unsigned` : ''}`, { payload: ['Not signable'] });
    const envelope = buildEnvelope(choice.primaryType, payload, { timestamp: Math.floor(ctx.now().getTime() / 1000) });
    const typedData = envelopeTypedData(domain, types.types, choice.primaryType, envelope);
    const words = noticeOf(operationId, payload as never) ?? `${operations[operationId].summary}: ${JSON.stringify(payload)}`;
    const link = `${ctx.dashboardUrl.replace(/\/$/, '')}/agent-sign#${encodeAgentRequest({ operationId, payload })}`;
    return { operationId, words, link, primaryType: choice.primaryType, typedData: JSON.parse(JSON.stringify(typedData, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Record<string, unknown> } as Record<string, unknown>;
  },
};
