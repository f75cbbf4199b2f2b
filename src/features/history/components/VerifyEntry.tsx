import { useState } from 'react';
import { verifyHistoryEntry, type HistoryVerification } from '@/core/eip712/verify-history-entry.ts';
import type { HistoryEntry } from '@/core/wire/history.ts';
import { shortAddress } from '@/lib/format.ts';
import { Button } from '@/ui/index.ts';
import { askAccountThroughRpc } from '../api/ask-account.ts';

/** The Verify button of a signed entry: recomputes the hash in the browser and checks the signature, then says what it found. */
export function VerifyEntry({ entry }: { entry: HistoryEntry }) {
  const [result, setResult] = useState<HistoryVerification | 'checking' | null>(null);
  const verify = async () => {
    setResult('checking');
    setResult(await verifyHistoryEntry(entry, askAccountThroughRpc(entry.signed?.domain.chainId)));
  };
  return (
    <div className="space-y-1">
      <Button variant="secondary" size="sm" onClick={() => void verify()} loading={result === 'checking'} aria-label={`Verify the signature of serial ${entry.serial}`}>
        Verify
      </Button>
      {result && result !== 'checking' ? <VerifyOutcome result={result} /> : null}
    </div>
  );
}

function VerifyOutcome({ result }: { result: HistoryVerification }) {
  if (result.status === 'unsigned') return <p className="text-sm">Nothing signed to verify.</p>;
  if (result.status === 'valid') {
    return (
      <p role="status" className="text-sm text-emerald-800 dark:text-emerald-300" title={result.checked.join('\n')}>
        signed by {shortAddress(result.signer)}
        {result.account ? ` for ${shortAddress(result.account)}` : ''} ✓
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
