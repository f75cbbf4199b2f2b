import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { dnssecQuery } from '@/features/dnssec/index.ts';
import { recordsQueryOptions } from '@/features/records/index.ts';
import { useApi } from '@/lib/api/use-api.ts';
import { config } from '@/lib/config.ts';
import { useConfirmedWrite } from '@/lib/errors/use-confirmed-write.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Badge, Button, Card, TextField } from '@/ui/index.ts';
import { useSetEnsRecord } from './api/set-ens-record.ts';
import { DEFAULT_ENS_RESOLVER, ensProblems, ensRdata, ensSteps, findEnsRecord, type StepState } from './model/ens-record.ts';

const STATE_WORDS: Record<StepState, { label: string; tone: 'success' | 'warning' | 'info' }> = {
  done: { label: 'Done', tone: 'success' },
  missing: { label: 'To do', tone: 'warning' },
  unknown: { label: 'Not known', tone: 'info' },
};

/**
 * On the DNSSEC tab: use this domain as an ENS name (ENSIP-17). One action writes the apex TXT `ENS1 <resolver>
 * <owner>` as an ordinary signed record change; the panel shows where each step stands (the record, DNSSEC, the DS
 * at the parent) and what the person must still do.
 */
export default function EnsPanel({ domain }: { domain: string }) {
  const api = useApi();
  const session = useWalletSession();
  const records = useQuery(recordsQueryOptions(api, domain));
  const dnssec = useQuery(dnssecQuery(api, domain, true));
  const found = records.data ? findEnsRecord(records.data) : null;
  const [resolver, setResolver] = useState<string | null>(null);
  const [address, setAddress] = useState<string | null>(null);
  const wanted = {
    resolver: resolver ?? found?.target.resolver ?? DEFAULT_ENS_RESOLVER,
    address: address ?? found?.target.address ?? session.address ?? '',
  };
  const problems = ensProblems(wanted);
  const valid = Object.keys(problems).length === 0;
  const [touched, setTouched] = useState(false);
  const set = useSetEnsRecord(domain);
  const write = useConfirmedWrite({ domain, address: session.address });
  const steps = ensSteps({ record: found, wanted, dnssec: dnssec.isSuccess ? dnssec.data.enabled : null, domain, localService: config.isLocalService });
  const rdata = valid ? ensRdata(wanted) : null;
  const unchanged = found !== null && rdata === found.record.rdata;

  const submit = () => {
    setTouched(true);
    if (!rdata || unchanged) return;
    void write.run(() => set.mutateAsync({ rdata, existing: found?.record ?? null }), { success: `The ENS record of ${domain} is set`, close: () => setTouched(false) });
  };

  return (
    <section aria-labelledby="ens-heading">
      <Card className="space-y-3">
        <div>
          <h2 id="ens-heading" className="text-lg font-semibold">
            Use {domain} as an ENS name
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            ENS reads a TXT record at {domain} naming a resolver and the address that owns the name (ENSIP-17). No transaction: ENS proves the record
            with DNSSEC.
          </p>
        </div>
        <ol className="space-y-1 text-sm" aria-label="ENS steps">
          {steps.map((step) => (
            <li key={step.id} data-testid={`ens-step-${step.id}`} className="flex flex-wrap items-baseline gap-2">
              <Badge tone={STATE_WORDS[step.state].tone}>{STATE_WORDS[step.state].label}</Badge>
              <span className="font-medium">{step.title}:</span>
              <span>{step.words}</span>
            </li>
          ))}
        </ol>
        <form
          noValidate
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <TextField
              label="ENS resolver"
              hint={`Mainnet's resolver for DNS names is ${DEFAULT_ENS_RESOLVER}`}
              value={wanted.resolver}
              error={touched || resolver !== null ? problems.resolver : undefined}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setResolver(e.target.value)}
            />
            <TextField
              label="Owner address"
              hint="The address that will own the ENS name (your wallet by default)"
              value={wanted.address}
              error={touched || address !== null ? problems.address : undefined}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setAddress(e.target.value)}
            />
          </div>
          {rdata && !unchanged ? (
            <SigningNotice
              lines={[
                found
                  ? `Change one record in ${domain}: the TXT record at ${domain} becomes ${rdata} (was ${found.record.rdata})`
                  : `Add one record in ${domain}: TXT at ${domain} ${rdata}, TTL 1 hour`,
              ]}
            />
          ) : null}
          {write.declined ? (
            <p className="text-sm" role="status">
              You declined the signature; the ENS record is unchanged.
            </p>
          ) : null}
          <div className="flex justify-end">
            <Button type="submit" loading={set.isPending} disabled={set.isPending || unchanged || records.isPending}>
              {unchanged ? 'ENS record set' : found ? 'Replace the ENS record' : 'Set the ENS record'}
            </Button>
          </div>
        </form>
      </Card>
    </section>
  );
}
