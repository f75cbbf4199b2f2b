import { useEffect, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { UserDomain } from '#core/wire/user.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { shortAddress } from '@/lib/format.ts';
import { refreshFacts } from '@/lib/freshness/facts.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { isUserRejection } from '@/lib/signing/errors.ts';
import { Button, Card, Dialog, Notice, Spinner, TextField } from '@/ui/index.ts';
import { userDomainsQueryOptions } from './api/get-user-domains.ts';
import { checkReceiver } from './send/receiver.ts';
import { probeReceiver, sendDomainToken, waitMined, type ReceiverKind } from './send/send-domain.ts';

type Address = `0x${string}`;

/** Where a send stands: the person fills the form, the wallet asks, the chain mines, then the service follows. */
type Step =
  | { at: 'form'; declined?: boolean; failed?: string }
  | { at: 'wallet'; to: Address }
  | { at: 'pending'; to: Address; hash: Address }
  | { at: 'mined'; to: Address; hash: Address; blockNumber: bigint };

/** What moves with the domain and what ends, said before the wallet opens. */
function whatHappens(domain: string, owned: UserDomain, to: string): { moves: string; ends: string } {
  const records = owned.recordCount === undefined ? 'its DNS records' : `its ${owned.recordCount} DNS record${owned.recordCount === 1 ? '' : 's'}`;
  const dnssec = owned.dnsStatus.isDnssecEnabled ? 'DNSSEC (on, with its key)' : 'its DNSSEC setting (off)';
  const forwarding = owned.dnsStatus.isForwardingEnabled ? 'forwarding (on)' : owned.dnsStatus.isParkingEnabled ? 'parking (on)' : 'its forwarding and parking settings';
  return {
    moves: `${domain}, ${records}, ${dnssec} and ${forwarding} go to ${to}, which may edit them from the block the transaction is mined in. Nothing the domain answers changes.`,
    ends: `Auto-renew is switched off (it would spend the new holder's credit), every access you granted to other wallets ends, and this wallet can no longer change ${domain}. Only the receiver can send it back.`,
  };
}

const RECEIVER_WORDS: Record<Exclude<ReceiverKind, 'wallet'>, { tone: 'warning' | 'info'; text: string }> = {
  contract: {
    tone: 'warning',
    text: 'This address is a contract, and it does not say that it accepts ERC-721 tokens. Unless it implements onERC721Received the transfer fails (nothing moves, the gas is spent); if it does, the contract may still have no way to use the domain or send it on. Send it only to a contract you know.',
  },
  'receiver-contract': { tone: 'info', text: 'This address is a contract that says it accepts ERC-721 tokens (a smart account or a vault, say). Make sure its owners can use it.' },
};

function walletError(error: unknown): string {
  const e = error as { name?: string; shortMessage?: string; message?: string };
  if (e.name?.includes('ChainMismatch')) return 'Your wallet is on another network than the domain\u2019s registry: switch network in your wallet and try again. Nothing was sent.';
  return `The wallet did not send the transaction: ${e.shortMessage ?? e.message ?? 'unknown error'}. Nothing was sent.`;
}

/**
 * On the domain page: send the domain (its ERC-721 token) to another wallet, from the holder's own wallet through
 * wagmi. The dashboard checks the address at the field, says what moves and what ends, shows the transaction until it
 * is mined, then follows the service until the domain has left this wallet's list (the service reads the chain, so it
 * may be down meanwhile: the panel says so and shows the result when it answers again).
 */
export default function SendDomainPanel({ domain }: { domain: string }) {
  const api = useApi();
  const session = useWalletSession();
  const queryClient = useQueryClient();
  const signedIn = session.status === 'signed-in';
  const [step, setStep] = useState<Step>({ at: 'form' });
  const [open, setOpen] = useState(false);
  const following = step.at === 'pending' || step.at === 'mined';
  const domains = useQuery({ ...userDomainsQueryOptions(api, session.address), enabled: signedIn, refetchInterval: following ? 1_000 : false, retry: following ? false : 3 });
  const owned = domains.data?.find((d) => d.normalizedDomainName === domain);
  // The holder (the token's owner) as the domain was last listed, kept once a send started: the list stops naming it.
  const [holder, setHolder] = useState<UserDomain | null>(null);
  useEffect(() => {
    if (owned && step.at === 'form') setHolder(owned);
  }, [owned, step.at]);

  const heading = (
    <h2 id="send-domain-heading" className="text-lg font-semibold">
      Send to another wallet
    </h2>
  );
  const frame = (body: ReactNode) => (
    <section aria-labelledby="send-domain-heading">
      <Card className="space-y-3">
        {heading}
        {body}
      </Card>
    </section>
  );

  if (!signedIn || !session.address) {
    return frame(
      <>
        <p className="text-sm">Sign in with the wallet that holds {domain} to send it to another wallet.</p>
        <Button onClick={() => void session.requestSignIn()}>Sign in</Button>
      </>,
    );
  }
  if (domains.isPending) return frame(<Spinner label="Checking who holds the domain" />);
  const subject = owned ?? holder;
  if (!subject) {
    return frame(<p className="text-sm">This wallet ({shortAddress(session.address)}) does not hold {domain}: only its holder can send it.</p>);
  }
  if (!subject.registry) {
    return frame(<p className="text-sm">The service this dashboard is connected to keeps domains in its own database, not as tokens on a chain: there is nothing to send from a wallet.</p>);
  }
  if ('delegated' in session && session.delegated) {
    return frame(<p className="text-sm">{domain} is held by the account {shortAddress(session.address)}, which this wallet signs for: send it from that account&apos;s own app.</p>);
  }
  const registry = subject.registry;

  const start = async (to: Address) => {
    setStep({ at: 'wallet', to });
    let hash: Address;
    try {
      hash = await sendDomainToken({ chainId: registry.chainId, registry: registry.address as Address, from: session.address!, to, tokenId: subject.tokenId });
    } catch (error) {
      setStep(isUserRejection(error) ? { at: 'form', declined: true } : { at: 'form', failed: walletError(error) });
      return;
    }
    setOpen(false);
    setStep({ at: 'pending', to, hash });
    try {
      const { blockNumber } = await waitMined(registry.chainId, hash);
      setStep({ at: 'mined', to, hash, blockNumber });
      // Not an operation of the service but a transaction on the chain: the facts it changes are said here, once.
      void refreshFacts(queryClient, { domain: ['registration'], account: ['domains'] }, domain);
    } catch (error) {
      setStep({ at: 'form', failed: error instanceof Error ? error.message : String(error) });
    }
  };

  const left = step.at === 'mined' && domains.isSuccess && !owned && !domains.isRefetchError;
  const serviceDown = following && domains.isError;

  return frame(
    <>
      <p className="text-sm">
        {domain} is a token (ERC-721) held by this wallet. Sending it to another wallet is a transaction your wallet sends on the chain; the receiver then holds the domain, its records and its settings.
      </p>
      {step.at === 'form' ? (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Send to another wallet
        </Button>
      ) : null}
      {step.at === 'pending' || step.at === 'mined' ? (
        <div className="space-y-2" role="status" aria-live="polite">
          <p className="text-sm">
            Transaction <span className="break-all font-mono">{step.hash}</span>{' '}
            {step.at === 'pending' ? 'sent: waiting for it to be mined…' : `mined in block ${step.blockNumber.toString()}.`}
          </p>
          {step.at === 'pending' ? <Spinner size="sm" label="Waiting for the transaction" /> : null}
          {left ? (
            <Notice tone="success" title={`Sent: ${domain} now belongs to ${step.to}`}>
              It has left this wallet&apos;s list. <Link to="/domains" className="underline">Back to your domains</Link>
            </Notice>
          ) : step.at === 'mined' && !serviceDown ? (
            <p className="text-sm">Waiting for the service to see the transfer…</p>
          ) : null}
          {serviceDown ? (
            <Notice tone="warning" title="The service is not answering right now">
              {step.at === 'pending'
                ? 'The transaction does not need it: it is on the chain. This page shows the result when the service answers again.'
                : `The chain has moved ${domain} to ${step.to}; your list still shows it until the service answers again.`}
            </Notice>
          ) : null}
        </div>
      ) : null}
      <SendDialog
        open={open}
        domain={domain}
        owner={session.address}
        holder={subject}
        step={step}
        onClose={() => {
          if (step.at === 'wallet') return;
          setOpen(false);
          setStep({ at: 'form' });
        }}
        onSend={(to) => void start(to)}
      />
    </>,
  );
}

function SendDialog(props: { open: boolean; domain: string; owner: Address; holder: UserDomain; step: Step; onClose: () => void; onSend: (to: Address) => void }) {
  const { open, domain, owner, holder, step, onClose, onSend } = props;
  const [typed, setTyped] = useState('');
  const [touched, setTouched] = useState(false);
  const [kind, setKind] = useState<{ address: string; kind: ReceiverKind | 'checking' | 'unknown' } | null>(null);
  const checked = checkReceiver(typed, owner);
  const shownError = touched && !checked.ok ? checked.reason : undefined;
  const address = checked.ok ? checked.address : null;
  const chainId = holder.registry?.chainId;

  // What the receiving address is, asked of the chain once per address.
  useEffect(() => {
    if (!address || chainId === undefined) return;
    let live = true;
    setKind({ address, kind: 'checking' });
    probeReceiver(chainId, address).then(
      (found) => live && setKind({ address, kind: found }),
      () => live && setKind({ address, kind: 'unknown' }),
    );
    return () => {
      live = false;
    };
  }, [address, chainId]);
  const receiver = kind && kind.address === address ? kind.kind : null;
  const words = address ? whatHappens(domain, holder, address) : null;
  const waiting = step.at === 'wallet';

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Send ${domain} to another wallet`}
      description="The domain's token moves on the chain, from your wallet, in a transaction your wallet asks you to confirm."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={waiting}>
            Cancel
          </Button>
          <Button
            loading={waiting}
            // While the chain is asked whether the receiver is a contract, a click would be dropped: the button waits.
            disabled={receiver === 'checking'}
            onClick={() => {
              setTouched(true);
              if (address && receiver !== 'checking') onSend(address);
            }}
          >
            {waiting ? 'Confirm in your wallet…' : 'Send with your wallet'}
          </Button>
        </>
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (address && receiver !== 'checking') onSend(address);
        }}
      >
        <TextField
          label="Receiving wallet address"
          hint="0x followed by 40 hexadecimal characters, copied from the receiving wallet"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          error={shownError}
          disabled={waiting}
          onChange={(event) => setTyped(event.target.value)}
          onBlur={() => setTouched(true)}
        />
      </form>
      {receiver === 'checking' ? <Spinner size="sm" label="Checking the receiving address on the chain" /> : null}
      {receiver === 'contract' || receiver === 'receiver-contract' ? (
        <Notice tone={RECEIVER_WORDS[receiver].tone} title={receiver === 'contract' ? 'The receiver is a contract that may not accept the domain' : 'The receiver is a contract'}>
          {RECEIVER_WORDS[receiver].text}
        </Notice>
      ) : null}
      {receiver === 'unknown' ? <p className="text-sm">The chain could not be asked whether this address is a contract.</p> : null}
      {words ? (
        <div className="space-y-2 text-sm" aria-label="What sending does">
          <p>
            <span className="font-medium">What moves: </span>
            {words.moves}
          </p>
          <p>
            <span className="font-medium">What ends: </span>
            {words.ends}
          </p>
        </div>
      ) : null}
      {step.at === 'form' && step.declined ? (
        <Notice tone="warning" title="Transfer declined">
          You declined the transaction in your wallet, so nothing was sent: {domain} is still yours.
        </Notice>
      ) : null}
      {step.at === 'form' && step.failed ? (
        <Notice tone="danger" title="The domain was not sent">
          {step.failed}
        </Notice>
      ) : null}
    </Dialog>
  );
}
