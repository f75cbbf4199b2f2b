import { explainError } from '@/lib/errors/explain.ts';
import { staleSince } from '@/lib/query-recovery.ts';
import { requestSignIn } from '@/lib/session/wallet-session.ts';
import { Button, Notice } from '@/ui/index.ts';

export interface AccessNoticesProps {
  zoneName: string;
  access: { address?: string; signedOut: boolean; apiKeyActs: boolean; serviceAway: boolean };
  /** Set while the records shown are the last ones loaded and the service now fails to answer. */
  stale: { error: unknown; since: number; retrying: boolean; retry: () => void } | null;
}

/** What can be changed right now: signed out (read-only), an API key acting after sign-out, records gone stale. */
export function AccessNotices({ zoneName, access, stale }: AccessNoticesProps) {
  return (
    <>
      {access.signedOut ? (
        <Notice
          tone="info"
          title="Signed out: these records are read-only"
          actions={
            <Button size="sm" onClick={requestSignIn}>
              Sign in
            </Button>
          }
        >
          Changes wait until you sign in again; a change set you build meanwhile is kept.
        </Notice>
      ) : access.apiKeyActs ? (
        <Notice tone="info" title="Not signed in, but your API key acts for you">
          The API key saved in Settings keeps acting for its wallet after sign-out, so changes still work. Remove it in Settings to stop that.
        </Notice>
      ) : null}

      {stale ? (
        <Notice
          tone="warning"
          title={`Stale since ${staleSince(stale.since)}: ${explainError(stale.error, { domain: zoneName, address: access.address }).title.replace(/^The/, 'the')}`}
          actions={
            <Button size="sm" loading={stale.retrying} onClick={stale.retry}>
              Try again
            </Button>
          }
        >
          These are the records as last loaded. Your change set and any open form are kept
          {access.serviceAway ? '; nothing will be signed until the service answers again' : ''}. This page checks again by itself.
        </Notice>
      ) : null}
    </>
  );
}
