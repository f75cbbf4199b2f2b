import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ROLE_WORDS, scopeInWords } from '#core/access/scope.ts';
import type { SharedDomain } from '#core/wire/access.ts';
import { noticeOf } from '#core/operations/index.ts';
import { useConfirmedWrite } from '@/lib/errors/use-confirmed-write.ts';
import { shortAddress } from '@/lib/format.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog, Notice } from '@/ui/index.ts';
import { useRevokeZoneAccess, zoneGrantsQuery } from '../api/zone-access.ts';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** On a shared domain's page: what the grantee may do here, in words, before they try; and a way to give it up. */
export function GrantBanner({ domain, grant }: { domain: string; grant: SharedDomain }) {
  const session = useWalletSession();
  const [asking, setAsking] = useState(false);
  // A grantee's list holds only their own grants: the live one is the one to give up.
  const mine = useQuery(zoneGrantsQuery(domain, asking)).data?.find((g) => !g.revokedAt && Date.parse(g.expiresAt) > Date.now());
  const giveUp = useRevokeZoneAccess(domain);
  const write = useConfirmedWrite({ domain, address: session.address });
  const what = grant.role === 'viewer' ? ROLE_WORDS.viewer : `${ROLE_WORDS[grant.role]}; your grant covers ${scopeInWords(grant)}`;
  return (
    <Notice
      tone="info"
      title={`Shared with you by ${shortAddress(grant.grantedBy)}: ${grant.role}`}
      actions={
        <Button size="sm" variant="secondary" onClick={() => setAsking(true)}>
          Give up this access
        </Button>
      }
    >
      {`You ${what} of ${domain}, until ${day(grant.expiresAt)}. Anything else is refused before your wallet opens.`}
      {asking ? (
        <Dialog
          open
          onClose={() => setAsking(false)}
          title={`Give up your access to ${domain}?`}
          description={`Your ${grant.role} grant from ${shortAddress(grant.grantedBy)} ends at once; only the owner can grant it again.`}
          footer={
            <>
              <Button variant="secondary" onClick={() => setAsking(false)}>
                Keep it
              </Button>
              <Button
                variant="danger"
                disabled={!mine}
                loading={giveUp.isPending}
                onClick={() =>
                  mine &&
                  void write.run(
                    async () => {
                      await giveUp.mutateAsync(mine.id);
                    },
                    { success: `You no longer have access to ${domain}`, close: () => setAsking(false) },
                  )
                }
              >
                Sign and give up
              </Button>
            </>
          }
        >
          {mine ? <SigningNotice lines={[noticeOf('revokeZoneAccess', { zoneName: domain, grantId: mine.id }) ?? 'RevokeZoneAccess']} /> : null}
        </Dialog>
      ) : null}
    </Notice>
  );
}
