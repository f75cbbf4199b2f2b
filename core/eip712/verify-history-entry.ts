import { hashTypedData, isErc6492Signature, isHex, recoverAddress, type Hex } from 'viem';
import { ENVELOPE_WINDOW, envelope as envelopeSchema } from '../wire/eip712.ts';
import type { HistoryEntry } from '../wire/history.ts';
import { envelopeTypedData, payloadTypeOf } from './envelope.ts';
import { signedPayloadProblems } from './history-payload-match.ts';
import { outOfScope, roleAtLeast, type GrantRole } from '../access/scope.ts';
import { roleNeeded } from '../access/role.ts';

/** Asks a contract account (ERC-1271, ERC-6492; an EIP-7702 account likewise) whether it accepts a signature over a hash. */
export type AskAccount = (input: { account: string; hash: Hex; signature: Hex; chainId?: number }) => Promise<boolean>;

export type HistoryVerification =
  /** No signature to check: an API key's change, or an order's. */
  | { status: 'unsigned' }
  /** Everything checked: the key (and the account acted for, when there is one) signed exactly this change. */
  | { status: 'valid'; hash: Hex; signer: string; account: string | null; by: 'key' | 'erc1271'; checked: string[] }
  /** The entry and the signature agree so far, but only a contract account can say yes: ask the chain about `hash`. */
  | { status: 'needs-erc1271'; hash: Hex; account: string; checked: string[] }
  | { status: 'invalid'; hash: Hex | null; problems: string[]; checked: string[] };

const lower = (a: string) => a.toLowerCase();
const WRITE_SLACK_S = 60;

/**
 * Re-checks a history entry without the service: recomputes the EIP-712 hash from the entry's own domain, types and
 * envelope (projected onto the signed struct as the service does), recovers the signer or asks the contract
 * account (`askAccount`, when the caller has a chain), and compares the signed payload with the changes the entry
 * says were made. Reports exactly what does not match.
 */
export async function verifyHistoryEntry(entry: HistoryEntry, askAccount?: AskAccount): Promise<HistoryVerification> {
  const signed = entry.signed;
  if (!signed) return { status: 'unsigned' };
  const checked: string[] = [];
  const problems: string[] = [];

  const parsed = envelopeSchema.safeParse(signed.envelope);
  if (!parsed.success) return { status: 'invalid', hash: null, problems: ['the envelope is not {payloadType, payload, timestamp, nonce}'], checked };
  const envelope = parsed.data;
  if (envelope.payloadType !== payloadTypeOf(signed.primaryType)) problems.push(`the envelope's payloadType is ${envelope.payloadType}, but ${signed.primaryType} signs ${payloadTypeOf(signed.primaryType)}`);
  let hash: Hex;
  try {
    hash = hashTypedData(envelopeTypedData(signed.domain, signed.types, signed.primaryType, envelope) as Parameters<typeof hashTypedData>[0]);
  } catch (error) {
    return { status: 'invalid', hash: null, problems: [...problems, `the hash cannot be computed from the entry's types: ${(error as Error).message}`], checked };
  }
  checked.push(`hash ${hash} recomputed from the entry's domain ${JSON.stringify(signed.domain)}, types and envelope (${signed.primaryType})`);

  // The service accepted the envelope only inside its window around the time of the write (a little slack for
  // the time between authentication and the write).
  const at = Date.parse(entry.at) / 1000;
  if (!(envelope.timestamp >= at - ENVELOPE_WINDOW.pastSeconds - WRITE_SLACK_S && envelope.timestamp <= at + ENVELOPE_WINDOW.futureSeconds)) {
    problems.push(`signed at ${new Date(envelope.timestamp * 1000).toISOString()}, outside the window of the entry's time ${entry.at}`);
  } else checked.push('the signature was made within the accepted window before the entry');
  const mismatches = signedPayloadProblems(entry);
  if (mismatches.length > 0) problems.push(...mismatches.map((m) => `changes do not match the signed payload: ${m}`));
  else checked.push('the changes are what the signed payload asks for');

  const signature = signed.signature as Hex;
  const signer = lower(signed.signer);
  const account = entry.actor.account;
  // The service records the signing key as the actor's wallet (and the account acted for, if any, as its
  // account): an entry whose author was edited must not pass with the original signature.
  if (lower(entry.actor.wallet) !== signer) problems.push(`the entry names ${lower(entry.actor.wallet)} as its author, but ${signer} signed it`);
  else checked.push(`the entry's author ${signer} is the signer`);
  if (entry.actor.via !== 'eip712') problems.push(`the entry says it was made by ${entry.actor.via}, but it carries an EIP-712 signature`);
  const recovered = isHex(signature) && !isErc6492Signature(signature) ? await recoverAddress({ hash, signature }).then(lower, () => null) : null;
  // Who must accept the signature: the account acted for; or the signer itself, as a contract, when no key made it.
  let contract: string | null = null;
  if (account) {
    if (recovered === signer) checked.push(`the key ${signer} made the signature`);
    else problems.push(`the signature was made by ${recovered ?? 'no key'}, not the signer ${signer}`);
    contract = lower(account);
  } else if (recovered === signer) checked.push(`the key ${signer} made the signature`);
  else contract = signer;

  if (entry.actor.grant) {
    const grant = await grantProblems(entry, askAccount);
    problems.push(...grant.problems);
    checked.push(...grant.checked);
  }

  if (problems.length > 0) return { status: 'invalid', hash, problems, checked };
  if (contract === null) return { status: 'valid', hash, signer, account: null, by: 'key', checked };
  if (!askAccount) {
    const why = recovered && !account ? `the signature recovers to ${recovered}, not ${signer}: valid only if ${signer} is a contract account that accepts it` : `${contract} is a contract account`;
    return { status: 'needs-erc1271', hash, account: contract, checked: [...checked, `${why}; ask it (ERC-1271) about the hash`] };
  }
  const accepted = await askAccount({ account: contract, hash, signature, chainId: signed.domain.chainId }).catch(() => false);
  if (!accepted) {
    const detail = recovered && !account ? `the signature recovers to ${recovered}, not the signer ${signer}, and ${signer} as a contract account does not accept it` : `the account ${contract} does not accept the signature (ERC-1271)`;
    return { status: 'invalid', hash, problems: [detail], checked };
  }
  return { status: 'valid', hash, signer, account: account ? lower(account) : null, by: 'erc1271', checked: [...checked, `the account ${contract} accepts the signature (ERC-1271)`] };
}

/**
 * A grantee's change (contract: Access): the owner's signature over the grant (recovered; a contract account asked
 * through `askAccount`), and that the change lies in it: its zone, its grantee, a role that allows the operation,
 * every record before and after within its names and types, made before it expired. Whether the grantor still owned
 * the domain at the time is the chain's to say (its Transfer events), not the entry's.
 */
async function grantProblems(entry: HistoryEntry, askAccount?: AskAccount): Promise<{ problems: string[]; checked: string[] }> {
  const grant = entry.actor.grant!;
  const problems: string[] = [];
  const checked: string[] = [];
  const parsed = envelopeSchema.safeParse(grant.signed.envelope);
  if (!parsed.success) return { problems: ['the grant\'s envelope is not {payloadType, payload, timestamp, nonce}'], checked };
  let hash: Hex;
  try {
    hash = hashTypedData(envelopeTypedData(grant.signed.domain, grant.signed.types, grant.signed.primaryType, parsed.data) as Parameters<typeof hashTypedData>[0]);
  } catch (error) {
    return { problems: [`the grant's hash cannot be computed: ${(error as Error).message}`], checked };
  }
  const owner = lower(grant.signed.signer);
  const signature = grant.signed.signature as Hex;
  const recovered = isHex(signature) && !isErc6492Signature(signature) ? await recoverAddress({ hash, signature }).then(lower, () => null) : null;
  if (recovered === owner) checked.push(`the grant ${grant.id} was signed by the owner's key ${owner}`);
  else if (askAccount && (await askAccount({ account: owner, hash, signature, chainId: grant.signed.domain.chainId }).catch(() => false))) checked.push(`the grant ${grant.id} was accepted by the owner's account ${owner} (ERC-1271)`);
  else problems.push(`the grant's signature was made by ${recovered ?? 'no key'}, not the owner ${owner}`);

  const payload = parsed.data.payload as Record<string, unknown>;
  const grantee = lower(String(payload.grantee ?? ''));
  const actor = lower(entry.actor.account ?? entry.actor.wallet);
  if (payload.zoneName !== entry.zoneName) problems.push(`the grant is for ${String(payload.zoneName)}, the change for ${entry.zoneName}`);
  if (grantee !== actor) problems.push(`the grant names ${grantee}, the change was made by ${actor}`);
  if (payload.role !== grant.role) problems.push(`the grant signs the ${String(payload.role)} role, the entry says ${grant.role}`);
  const needed = roleNeeded(entry.operation);
  if (!needed || !roleAtLeast(grant.role as GrantRole, needed)) problems.push(`a ${grant.role} grant does not allow ${entry.operation}`);
  const expiresAt = Number(payload.expiresAt) * 1000;
  if (!(Date.parse(entry.at) < expiresAt)) problems.push(`the change (${entry.at}) was made after the grant expired (${new Date(expiresAt).toISOString()})`);
  else checked.push(`made before the grant expired (${new Date(expiresAt).toISOString()})`);
  const scope = { names: (payload.names as string[]) ?? [], types: (payload.types as string[]) ?? [] };
  const outside = outOfScope(scope, entry.changes.flatMap((c) => [c.before, c.after]));
  if (outside) problems.push(`the change touches ${outside}, outside the grant`);
  else checked.push(`every record changed lies in the grant's names and types`);
  if (problems.length === 0) checked.push(`the grantee ${grantee}, role ${grant.role} and zone are the grant's`);
  return { problems, checked };
}
