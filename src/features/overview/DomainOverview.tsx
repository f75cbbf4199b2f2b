import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { calendarFileName, expiryEvents, printCalendar } from '#core/calendar/ics.ts';
import { managedByOf } from '#core/wire/dns.ts';
import type { Forwarding } from '#core/wire/forwarding.ts';
import { autoRenewQuery } from '@/features/auto-renew/index.ts';
import { dnssecQuery } from '@/features/dnssec/index.ts';
import { userDomainsQueryOptions } from '@/features/domains/index.ts';
import { forwardingQuery } from '@/features/forwarding/index.ts';
import { renewalQuoteQuery } from '@/features/renew/index.ts';
import { zoneRecordsQuery } from '@/features/parking/index.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { config } from '@/lib/config.ts';
import { downloadText } from '@/lib/download.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useServiceSupports } from '@/lib/signing/service-supports.ts';
import { Button } from '@/ui/index.ts';
import { apexDnsQuery } from './api/apex-dns.ts';
import { apexInWords, daysFromNow, ownerInWords } from './model/overview.ts';

export interface DomainOverviewProps {
  domain: string;
  /**
   * The renew action, shown beside the expiry: the Renew button and its dialog (renewDomain) come from the renewal
   * work; without it the overview shows the date alone.
   */
  renewAction?: ReactNode;
  /**
   * The domain's life-cycle state (active, grace, redemption) said in full, above the facts: the expiry states'
   * banner goes here. Without it the overview shows the facts alone.
   */
  lifecycle?: ReactNode;
  /** Further facts of later work (a transfer under way, access granted), each a `<div><dt/><dd/></div>` as Fact makes, after the others. */
  moreFacts?: ReactNode;
}

/**
 * One fact of the overview: a label above its value. `wide`: shown from the small breakpoint up only, so that on a
 * phone the overview keeps to three rows and the first record cards stay on the first screen.
 */
function Fact({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'hidden min-w-0 sm:block' : 'min-w-0'}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="truncate text-sm text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  );
}

const day = (iso: string) => iso.slice(0, 10);

/** Parking and forwarding exclude each other: one fact says which serves the domain, if either. */
function webInWords(state: { offered: boolean; records: boolean; recordsFailed: boolean; parked: boolean; forwarded: boolean; forwarding: Forwarding | undefined }): ReactNode {
  if (state.forwarding?.enabled) return <span title={state.forwarding.targetUrl}>Forwarding to {state.forwarding.targetUrl}</span>;
  if (!state.records) return state.recordsFailed ? 'Unavailable' : 'Checking…';
  if (state.parked) return 'Parked';
  if (state.forwarded) return 'Forwarding';
  return state.offered ? 'Neither' : 'Not parked';
}

/**
 * The top of the domain page: at a glance, is it mine, until when, is it working. Every fact comes from an answer the
 * page's tabs read as well (the same cached queries), plus two DNS questions for the apex; a setting the service does
 * not offer (production: forwarding, DNSSEC switches, auto-renew) is left out rather than shown as an error.
 */
export default function DomainOverview({ domain, renewAction, lifecycle, moreFacts }: DomainOverviewProps) {
  const api = useApi();
  const session = useWalletSession();
  const signedIn = session.status === 'signed-in';
  const owned = useQuery({ ...userDomainsQueryOptions(api, session.address), enabled: signedIn && !!session.address });
  const mine = owned.data?.find((d) => d.normalizedDomainName === domain);
  // The public quote (the renew line reads it too): the holder and expiry for a visitor, signed in or not.
  const quote = useQuery(renewalQuoteQuery(api, domain));
  const expiresAt = mine?.expirationDate ?? quote.data?.expiresAt;
  const records = useQuery(zoneRecordsQuery(api, domain));
  const forwardingOffered = useServiceSupports('setForwarding');
  const dnssecOffered = useServiceSupports('toggleDnssec');
  const autoRenewOffered = useServiceSupports('setAutoRenew');
  const forwarding = useQuery(forwardingQuery(api, domain, forwardingOffered === 'yes'));
  const dnssec = useQuery(dnssecQuery(api, domain, dnssecOffered === 'yes'));
  const autoRenew = useQuery(autoRenewQuery(api, domain, autoRenewOffered === 'yes'));

  const zone = records.data ?? [];
  const parked = zone.some((r) => managedByOf(r) === 'parking');
  const forwarded = zone.some((r) => managedByOf(r) === 'forwarding');
  const listedApex = zone
    .filter((r) => r.name === '@' && (r.type === 'A' || r.type === 'AAAA'))
    .map((r) => r.rdata)
    .sort()
    .join(' ');
  const apex = useQuery({ ...apexDnsQuery(config.dohUrl, domain, listedApex), enabled: domain !== '' && records.isSuccess });
  const apexWords = apex.data ? apexInWords(apex.data) : null;

  const downloadCalendar = () => {
    if (!mine) return;
    downloadText(printCalendar(expiryEvents([mine], window.location.origin), { now: new Date(), name: `${domain}: expiry` }), calendarFileName(domain), 'text/calendar');
  };

  const checking = 'Checking…';
  return (
    <section aria-labelledby="overview-heading" className="space-y-2 rounded-xl border border-slate-200 p-3 dark:border-slate-700">
      <h2 id="overview-heading" className="sr-only">
        Overview of {domain}
      </h2>
      {lifecycle}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5 sm:grid-cols-4 sm:gap-y-2">
        <Fact label="Owner">
          {ownerInWords({ signedIn, loading: owned.isPending, ownerAddress: mine?.ownerAddress, holder: quote.data?.ownerAddress, you: session.address })}
        </Fact>
        <Fact label="Expires">
          {expiresAt ? (
            <>
              <time dateTime={expiresAt} title={new Date(expiresAt).toUTCString()}>
                {day(expiresAt)}
              </time>{' '}
              <span className="text-slate-600 dark:text-slate-400">({daysFromNow(expiresAt, Date.now())})</span>
            </>
          ) : !signedIn ? (
            'Sign in to see'
          ) : owned.isPending ? (
            checking
          ) : (
            'Known to its owner'
          )}
        </Fact>
        {autoRenewOffered === 'no' ? null : (
          <Fact label="Auto-renew">
            {autoRenew.data ? (autoRenew.data.enabled ? `On, ${autoRenew.data.durationInYears} yr at a time` : 'Off') : autoRenew.isError ? 'Unavailable' : checking}
          </Fact>
        )}
        <Fact label="Domain answers">
          {apexWords ? <span className={apexWords.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-700 dark:text-amber-400'}>{apexWords.words}</span> : apex.isError ? 'Could not ask DNS' : checking}
        </Fact>
        <Fact label={forwardingOffered === 'no' ? 'Parking' : 'Parking / forwarding'}>
          {webInWords({ offered: forwardingOffered !== 'no', records: records.data !== undefined, recordsFailed: records.isError, parked, forwarded, forwarding: forwarding.data })}
        </Fact>
        {dnssecOffered === 'no' ? null : (
          <Fact label="DNSSEC">{dnssec.data ? (dnssec.data.enabled ? `Signed (key ${dnssec.data.keyTag})` : 'Not signed') : dnssec.isError ? 'Unavailable' : checking}</Fact>
        )}
        <Fact label="Name servers" wide>
          {apex.data ? (apex.data.nameServers.length > 0 ? <span title={apex.data.nameServers.join(', ')}>{apex.data.nameServers.join(', ')}</span> : 'None answered') : apex.isError ? 'Could not ask DNS' : checking}
        </Fact>
        {moreFacts}
        {mine ? (
          // A cell of the grid rather than a row of its own, and not on a phone (where the Domains page's calendar
          // holds every domain's expiry): there the records stay on the first screen under the renew line.
          <div className="hidden items-center sm:flex">
            <dt className="sr-only">Reminders</dt>
            <dd>
              <Button size="sm" variant="secondary" onClick={downloadCalendar} title="The expiry as a calendar event, with reminders 30, 7 and 1 days before">
                Add expiry to calendar (.ics)
              </Button>
            </dd>
          </div>
        ) : null}
      </dl>
      {renewAction ? <div className="flex flex-wrap items-center gap-2">{renewAction}</div> : null}
    </section>
  );
}
