import { Notice } from '@/ui/index.ts';
import { isLocalUrl } from '@/lib/config.ts';
import { useWalletSessionState } from '@/lib/session/wallet-session.ts';
import { signInAddress } from '@/lib/session/network.ts';

/**
 * The service signs in for another host than this page's (say 127.0.0.1:5173 against localhost:5173): a
 * signature here could never be accepted, so none is asked for; the notice names the address that works.
 */
export function HostMismatchNotice() {
  const serviceHost = useWalletSessionState((s) => s.hostMismatch);
  if (!serviceHost) return null;
  const href = signInAddress(serviceHost, window.location);
  // A link only to a local address: a remote service's word is shown, not followed blindly.
  const linkable = href && (isLocalUrl(href) || isLocalUrl(window.location.href));
  return (
    <Notice tone="warning" title={`Sign in at ${serviceHost}`}>
      The service accepts sign-in only for {serviceHost}, and this page is {window.location.host}. Nothing was signed.{' '}
      {linkable ? (
        <>
          Open{' '}
          <a className="font-semibold underline" href={href}>
            {href}
          </a>{' '}
          to sign in.
        </>
      ) : (
        `Open the dashboard at ${serviceHost} to sign in.`
      )}
    </Notice>
  );
}
