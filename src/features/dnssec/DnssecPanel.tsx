import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/lib/api/use-api.ts';
import { config } from '@/lib/config.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useConfirmedWrite } from '@/lib/errors/use-confirmed-write.ts';
import { useServiceSupports } from '@/lib/signing/service-supports.ts';
import { useSigningTypes } from '@/lib/signing/signing-queries.ts';
import { Card, Notice, Spinner, Switch } from '@/ui/index.ts';
import { dnssecQuery } from './api/get-dnssec.ts';
import { useConfirmParentDs, useToggleDnssec } from './api/toggle-dnssec.ts';
import { DnssecDialog } from './components/DnssecDialog.tsx';
import { DsRecordFields } from './components/DsRecordFields.tsx';
import { RolloverDialog } from './components/RolloverDialog.tsx';
import { RolloverSteps } from './components/RolloverSteps.tsx';
import { SigningChoices } from './components/SigningChoices.tsx';
import { chainState, signedWith, type SigningChoice } from './dnssec-words.ts';

const DNSSEC_OPERATIONS = ['toggleDnssec'] as const;

/**
 * On the domain page: whether the zone is signed (DNSSEC), a switch to sign it or stop (signed), the DS record a
 * registrar asks for, and where the chain of trust stands. Production offers DNSSEC only at registration and has
 * no such operation (types-for-method answers found: false), so against it the panel says so and asks nothing;
 * any service that offers it, local or self-hosted, gets the switch.
 */
export default function DnssecPanel({ domain }: { domain: string }) {
  const api = useApi();
  const session = useWalletSession();
  const supported = useServiceSupports('toggleDnssec');
  const offered = supported === 'yes';
  const state = useQuery(dnssecQuery(api, domain, offered));
  const toggle = useToggleDnssec(domain);
  const confirmDs = useConfirmParentDs(domain);
  useSigningTypes(DNSSEC_OPERATIONS);
  const [asking, setAsking] = useState<boolean | null>(null);
  const [askingRollover, setAskingRollover] = useState(false);
  // The owner's choice, until signed; null: as the zone is signed (or the defaults).
  const [picked, setPicked] = useState<SigningChoice | null>(null);
  const write = useConfirmedWrite({ domain, address: session.address });
  // During a rollover the zone's algorithm is the one it rolls to (the DS shown is the old key's until step 3).
  const choice: SigningChoice = picked ?? { algorithm: state.data?.rollover?.to.algorithm ?? state.data?.algorithm ?? 13, denial: state.data?.denial ?? 'nsec', nsec3OptOut: state.data?.nsec3OptOut ?? false };
  const done = () => {
    setAsking(null);
    setAskingRollover(false);
    setPicked(null);
  };

  const confirm = (enable: boolean) =>
    write.run(() => toggle.mutateAsync({ enabled: enable, choice }), { success: enable ? `${domain} is signed` : `${domain} is no longer signed`, close: done });
  const startRollover = () =>
    write.run(() => toggle.mutateAsync({ enabled: true, choice }), { success: `${domain} is rolling over to algorithm ${choice.algorithm}`, close: done });
  const sayDsChanged = (keyTag: number) => write.run(() => confirmDs.mutateAsync(keyTag), { success: `The old key of ${domain} goes once the old DS has left the caches`, close: done });
  const applyChoice = () => write.run(() => toggle.mutateAsync({ enabled: true, choice }), { success: `${domain} is signed with ${choice.denial.toUpperCase()}`, close: done });

  const enabled = state.data?.enabled ?? false;
  return (
    <section aria-labelledby="dnssec-heading">
      <Card className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="dnssec-heading" className="text-lg font-semibold">DNSSEC</h2>
            <p className="text-sm text-slate-600 dark:text-slate-400" role="status">
              {supported === 'no'
                ? 'This service offers DNSSEC only when a domain is registered; it cannot be turned on or off here.'
                : supported === 'checking' || state.isPending
                  ? 'Checking…'
                  : state.isError
                    ? 'DNSSEC status unavailable'
                    : enabled
                      ? `Signed: every answer carries a signature (key tag ${state.data?.keyTag}, ${state.data ? signedWith(state.data) : ''}).`
                      : 'Not signed: resolvers take the answers on trust.'}
            </p>
          </div>
          {supported === 'no' ? null : supported === 'checking' || state.isPending ? (
            <Spinner size="sm" label="Checking DNSSEC" />
          ) : state.isError ? null : (
            <Switch label="Sign this zone (DNSSEC)" checked={enabled} disabled={toggle.isPending} onChange={(next) => setAsking(next)} />
          )}
        </div>
        {state.isError ? <Notice tone="danger" title={explainError(state.error, { domain }).title}>{explainError(state.error, { domain }).description}</Notice> : null}
        {write.declined ? <p className="text-sm" role="status">You declined the signature; DNSSEC is unchanged.</p> : null}
        {offered && state.data ? <SigningChoices state={state.data} choice={choice} onChange={setPicked} onApply={() => void applyChoice()} onRollover={() => setAskingRollover(true)} busy={toggle.isPending} /> : null}
        {enabled && state.data?.rollover ? (
          <RolloverSteps domain={domain} rollover={state.data.rollover} busy={confirmDs.isPending} onConfirm={() => void sayDsChanged(state.data.rollover!.to.keyTag)} />
        ) : null}
        {enabled && state.data ? (
          <>
            <DsRecordFields state={state.data} />
            <p className="text-sm" data-testid="dnssec-chain">
              <span className="font-medium">Chain of trust: </span>
              {chainState(domain)}
              {config.isLocalService ? ' (This local service has no parent zone; its own name server is the only one.)' : null}
            </p>
          </>
        ) : null}
        {askingRollover && state.data ? (
          <RolloverDialog domain={domain} from={state.data.algorithm} choice={choice} busy={toggle.isPending} onCancel={() => setAskingRollover(false)} onConfirm={() => void startRollover()} />
        ) : null}
        {asking !== null ? <DnssecDialog domain={domain} enable={asking} busy={toggle.isPending} onCancel={() => setAsking(null)} onConfirm={() => void confirm(asking)} /> : null}
      </Card>
    </section>
  );
}
