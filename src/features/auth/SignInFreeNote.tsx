import { createPortal } from 'react-dom';
import { useConnectModal } from '@rainbow-me/rainbowkit';
import { useAccount } from 'wagmi';

/**
 * RainbowKit's sign-in step has no room for our words, and the dialog covers the page: this line sits above
 * its backdrop while the wallet is about to be asked for the sign-in signature, as every other signature's notice says.
 */
export function SignInFreeNote({ signedIn }: { signedIn: boolean }) {
  const { connectModalOpen } = useConnectModal();
  const { isConnected } = useAccount();
  if (!connectModalOpen || !isConnected || signedIn) return null;
  return createPortal(
    <p
      role="note"
      aria-label="About the sign-in signature"
      style={{ zIndex: 2147483647 }}
      className="fixed inset-x-0 bottom-4 mx-auto w-fit max-w-[90vw] rounded-lg border border-brand-200 bg-brand-50 px-4 py-2 text-center text-sm text-brand-950 shadow-lg dark:border-brand-800 dark:bg-brand-950 dark:text-brand-100"
    >
      Signing in is free and sends no transaction: your wallet signs a message, nothing is paid or sent.
    </p>,
    document.body,
  );
}
