import { useQuery } from '@tanstack/react-query';
import { apiKeysQuery } from '@/features/settings/index.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { Badge, Spinner } from '@/ui/index.ts';
import { lastUsedInWords, reaches, toolKeyScopeInWords } from '../model/key-list.ts';

/** The wallet's keys that reach this domain: what each may do, in words, and when and through which door it was last used. */
export function ToolKeyList({ domain }: { domain: string }) {
  const session = useWalletSession();
  const keys = useQuery({ ...apiKeysQuery(session.address), enabled: session.status === 'signed-in' });
  const reaching = (keys.data ?? []).filter((k) => reaches(k, domain));
  const now = Date.now();
  return (
    <section aria-labelledby="tool-keys-heading" className="space-y-2">
      <h3 id="tool-keys-heading" className="font-semibold">
        Keys that reach {domain}
      </h3>
      {session.status !== 'signed-in' ? (
        <p className="text-sm">Sign in to see your keys.</p>
      ) : keys.isPending ? (
        <Spinner size="sm" label="Loading keys" />
      ) : reaching.length === 0 ? (
        <p className="text-sm">No key of yours reaches {domain} yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-700">
          {reaching.map((key) => (
            <li key={key.id} className="py-2">
              <p>
                <span className="font-medium">{key.label}</span> <span className="font-mono">{key.prefix}…</span> {key.tsig ? <Badge tone="neutral">TSIG</Badge> : null}
              </p>
              <p>{toolKeyScopeInWords(key)}</p>
              <p className="text-slate-600 dark:text-slate-400">{lastUsedInWords(key, now)}</p>
            </li>
          ))}
        </ul>
      )}
      <p className="text-sm text-slate-600 dark:text-slate-400">Keys are revoked in Settings; a revoked key stops working everywhere at once, its TSIG form with it.</p>
    </section>
  );
}
