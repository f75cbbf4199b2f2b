import { useState } from 'react';
import { verifyHistoryEntry, type HistoryVerification } from '#core/eip712/verify-history-entry.ts';
import type { HistoryEntry } from '#core/wire/history.ts';
import { shortAddress } from '@/lib/format.ts';
import { Button } from '@/ui/index.ts';
import { chainForVerifying, type AccountKind } from '../api/ask-account.ts';

/** The Verify button of a signed entry: recomputes the hash in the browser and checks the signature, then says what it found. */
export function VerifyEntry({ entry }: { entry: HistoryEntry }) {
  const [result, setResult] = useState<HistoryVerification | 'checking' | null>(null);
  const [kind, setKind] = useState<AccountKind | null>(null);
  const verify = async () => {
    setResult('checking');
    const chain = chainForVerifying(entry.signed?.domain.chainId);
    const verified = await verifyHistoryEntry(entry, chain?.ask);
    // Which kind of account accepted it, in words: asked of the chain only when a contract account answered.
    const account = verified.status === 'valid' && verified.by === 'erc1271' ? (verified.account ?? verified.signer) : null;
    setKind(account && chain ? await chain.kindOf(account).catch(() => null) : null);
    setResult(verified);
  };
  return (
    <div className="space-y-1">
      <Button variant="secondary" size="sm" onClick={() => void verify()} loading={result === 'checking'} aria-label={`Verify the signature of serial ${entry.serial}`}>
        Verify
      </Button>
      {result && result !== 'checking' ? <VerifyOutcome result={result} kind={kind} grantBy={entry.actor.grant?.signed.signer ?? null} /> : null}
    </div>
  );
}

const KIND_WORDS: Record<AccountKind, string> = { contract: 'a contract account', eip7702: 'an EIP-7702 account', undeployed: 'an account not deployed yet (ERC-6492)' };

function VerifyOutcome({ result, kind, grantBy }: { result: HistoryVerification; kind: AccountKind | null; grantBy: string | null }) {
  if (result.status === 'unsigned') return <p className="text-sm">Nothing signed to verify.</p>;
  if (result.status === 'valid') {
    return (
      <p role="status" className="text-sm text-emerald-800 dark:text-emerald-300" title={result.checked.join('\n')}>
        signed by {shortAddress(result.signer)}
        {result.account ? ` for ${shortAddress(result.account)}` : ''} ✓ {result.by === 'key' ? 'with a key' : `accepted by ${kind ? KIND_WORDS[kind] : 'the account'} (ERC-1271)`}
        {grantBy ? `, under a grant signed by the owner ${shortAddress(grantBy)} ✓ (in its scope and time)` : ''}
      </p>
    );
  }
  if (result.status === 'needs-erc1271') {
    return (
      <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
        Needs the chain: {shortAddress(result.account)} must accept the signature over {result.hash.slice(0, 10)}… (ERC-1271), and no chain RPC is configured.
      </p>
    );
  }
  return (
    <div role="alert" className="text-sm text-red-800 dark:text-red-300">
      <p>Does not verify:</p>
      <ul className="list-disc pl-5">
        {result.problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </div>
  );
}
