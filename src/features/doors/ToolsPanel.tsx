import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { config } from '@/lib/config.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { SignInCancelledError, useWalletSession } from '@/lib/session/wallet-session.ts';
import { Card, Notice, useToast } from '@/ui/index.ts';
import { serviceDoorsQuery } from './api/service-doors.ts';
import { useCreateToolKey } from './api/create-tool-key.ts';
import { configsFor, updateServerOf, type ConfigBlock } from './model/configs.ts';
import { fullNameOf, needsTsig, PURPOSE_IDS, PURPOSES, purposeLabel, type Purpose } from './model/purposes.ts';
import { PurposeForm, type PurposeChoice } from './components/PurposeForm.tsx';
import { ConfigsOnce } from './components/ConfigsOnce.tsx';
import { ToolKeyList } from './components/ToolKeyList.tsx';

/**
 * "Connect a tool" on the domain page: the person starts from what they want (certificates, Kubernetes, Terraform, a
 * home router), the panel makes the narrowest key for it (contract: The standard doors) and shows the tools'
 * configurations with it once, and lists the keys that reach the domain with when and through which door each was
 * last used.
 */
export default function ToolsPanel({ domain }: { domain: string }) {
  const session = useWalletSession();
  const doors = useQuery(serviceDoorsQuery());
  const create = useCreateToolKey();
  const { toast } = useToast();
  const [purpose, setPurpose] = useState<Purpose | null>(null);
  const [shown, setShown] = useState<{ label: string; blocks: ConfigBlock[] } | null>(null);
  const server = doors.data ? updateServerOf(doors.data, config.apiBaseUrl) : null;
  const unavailable = (p: Purpose): string | null => {
    if (doors.isError) return 'This service does not offer the standard doors';
    if (doors.data && needsTsig(p) && !server) return 'This service answers no DNS (DNS_PORT is not set)';
    return null;
  };

  const make = async (chosen: Purpose, choice: PurposeChoice) => {
    try {
      if (session.status !== 'signed-in' || !session.address) await session.requestSignIn();
      const label = `${PURPOSES[chosen].title} for ${domain}`;
      const created = await create.mutateAsync({ body: { label, scope: choice.scope, tsig: needsTsig(chosen) } });
      const names = choice.names.map((n) => fullNameOf(domain, n));
      const origin = new URL(config.apiBaseUrl).origin;
      setShown({ label, blocks: configsFor(chosen, { zoneName: domain, names, created, server, origin }) });
    } catch (error) {
      if (error instanceof SignInCancelledError) return;
      toast({ tone: 'error', ...explainError(error) });
    }
  };

  return (
    <Card className="space-y-4">
      <div>
        <h2 className="text-lg font-semibold">Connect a tool</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Tools that change {domain}’s DNS by themselves get a key of their own, limited to what they need. Every change they make is in the History.
        </p>
      </div>
      {doors.isError ? <Notice title="This service does not say where its DNS UPDATE and DynDNS2 doors open">Connect tools through its API instead.</Notice> : null}
      {shown ? (
        <ConfigsOnce label={shown.label} blocks={shown.blocks} onDone={() => setShown(null)} />
      ) : (
        <>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">What will change {domain}’s DNS?</legend>
            {PURPOSE_IDS.map((p) => {
              const why = unavailable(p);
              return (
                <label key={p} className="flex items-start gap-2 text-sm">
                  <input type="radio" name="purpose" value={p} checked={purpose === p} disabled={why !== null} onChange={() => setPurpose(p)} className="mt-1" />
                  <span>
                    <span className="font-medium">{purposeLabel(p)}</span>
                    <span className="block text-slate-600 dark:text-slate-400">{why ?? `Through ${PURPOSES[p].door}`}</span>
                  </span>
                </label>
              );
            })}
          </fieldset>
          {purpose && !unavailable(purpose) ? (
            <PurposeForm key={purpose} domain={domain} purpose={purpose} signedIn={session.status === 'signed-in'} pending={create.isPending} onSubmit={(choice) => void make(purpose, choice)} />
          ) : null}
        </>
      )}
      <ToolKeyList domain={domain} />
    </Card>
  );
}
