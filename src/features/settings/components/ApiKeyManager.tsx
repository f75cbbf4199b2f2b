import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ApiKeySummary, CreatedApiKey } from '@/core/wire/user.ts';
import { createApiKeyInput } from '@/core/wire/user.ts';
import { isApiError } from '@/lib/api/errors.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { Button, Card, Dialog, EmptyState, Spinner, TextField, useToast } from '@/ui/index.ts';
import { apiKeysQuery } from '../api/list-api-keys.ts';
import { useCreateApiKey } from '../api/create-api-key.ts';
import { useRevokeApiKey } from '../api/revoke-api-key.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Create, list and revoke the wallet's API keys (backed by the service, SIWE session or API key). */
export function ApiKeyManager() {
  const session = useWalletSession();
  const settings = useSettings();
  const canCall = session.status === 'signed-in' || !!settings.apiKey;
  const keys = useQuery({ ...apiKeysQuery(session.address), enabled: canCall });
  const create = useCreateApiKey(session.address);
  const revoke = useRevokeApiKey(session.address);
  const { toast } = useToast();
  const [label, setLabel] = useState('');
  const [labelError, setLabelError] = useState<string>();
  const [created, setCreated] = useState<CreatedApiKey>();
  const [toRevoke, setToRevoke] = useState<ApiKeySummary>();

  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = createApiKeyInput.safeParse({ label });
    if (!parsed.success) {
      setLabelError(parsed.error.issues[0]?.message);
      return;
    }
    setLabelError(undefined);
    try {
      setCreated(await create.mutateAsync(parsed.data.label));
      setLabel('');
    } catch (error) {
      if (isApiError(error) && error.fieldErrors.label) setLabelError(error.fieldErrors.label[0]);
      else toast({ tone: 'error', ...explainError(error) });
    }
  };

  const onRevoke = async () => {
    if (!toRevoke) return;
    try {
      await revoke.mutateAsync(toRevoke.id);
      toast({ tone: 'success', title: `Revoked “${toRevoke.label}”`, description: 'Requests with that key are refused from now on.' });
    } catch (error) {
      toast({ tone: 'error', ...explainError(error) });
    } finally {
      setToRevoke(undefined);
    }
  };

  return (
    <Card className="space-y-4">
      <div>
        <h2 className="text-lg font-semibold">Your API keys</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">Keys for scripts and tools. A key is shown once, when it is created.</p>
      </div>
      {!canCall ? (
        <EmptyState
          title="Sign in to manage API keys"
          description="Your API keys belong to your wallet."
          action={<Button onClick={() => void session.requestSignIn()}>{session.status === 'disconnected' ? 'Connect wallet' : 'Sign in'}</Button>}
        />
      ) : (
        <>
          <form onSubmit={onCreate} noValidate className="flex flex-wrap items-start gap-2">
            <div className="min-w-56 flex-1">
              <TextField label="New key label" value={label} onChange={(e) => setLabel(e.target.value)} error={labelError} hint="For example: deploy script" />
            </div>
            <Button type="submit" loading={create.isPending} className="sm:mt-6">
              Create key
            </Button>
          </form>
          {keys.isPending ? (
            <Spinner label="Loading API keys" />
          ) : keys.isError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {explainError(keys.error).title}. {explainError(keys.error).description}
            </p>
          ) : keys.data.length === 0 ? (
            <EmptyState title="No API keys yet" description="Create one above to use the service from scripts." />
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">API keys</caption>
                <thead className="text-xs uppercase text-slate-600 dark:text-slate-400">
                  <tr>
                    <th scope="col" className="py-2 pr-4">Label</th>
                    <th scope="col" className="py-2 pr-4">Key</th>
                    <th scope="col" className="py-2 pr-4">Created</th>
                    <th scope="col" className="py-2 pr-4">Last used</th>
                    <th scope="col" className="py-2"><span className="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
                  {keys.data.map((key) => (
                    <tr key={key.id}>
                      <th scope="row" className="py-2 pr-4 font-medium">{key.label}</th>
                      <td className="py-2 pr-4 font-mono">{key.prefix}…</td>
                      <td className="py-2 pr-4">{dateFormat.format(new Date(key.createdAt))}</td>
                      <td className="py-2 pr-4">{key.lastUsedAt ? dateFormat.format(new Date(key.lastUsedAt)) : 'Never'}</td>
                      <td className="py-2 text-right">
                        <Button size="sm" variant="secondary" onClick={() => setToRevoke(key)} aria-label={`Revoke ${key.label}`}>
                          Revoke
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}

      <Dialog
        open={!!created}
        onClose={() => setCreated(undefined)}
        title="Your new API key"
        description="Copy it now: it will not be shown again."
        footer={
          <>
            <Button
              variant="secondary"
              onClick={() => {
                if (created) void navigator.clipboard?.writeText(created.key).then(() => toast({ tone: 'success', title: 'Key copied' }));
              }}
            >
              Copy key
            </Button>
            <Button onClick={() => setCreated(undefined)}>Done</Button>
          </>
        }
      >
        <TextField label={`Key “${created?.label ?? ''}”`} value={created?.key ?? ''} readOnly className="font-mono" onFocus={(e) => e.target.select()} />
      </Dialog>

      <Dialog
        open={!!toRevoke}
        onClose={() => setToRevoke(undefined)}
        title={`Revoke “${toRevoke?.label ?? ''}”?`}
        description="Scripts using this key stop working at once. This cannot be undone."
        footer={
          <>
            <Button variant="secondary" onClick={() => setToRevoke(undefined)}>
              Keep key
            </Button>
            <Button variant="danger" loading={revoke.isPending} onClick={() => void onRevoke()}>
              Revoke key
            </Button>
          </>
        }
      />
    </Card>
  );
}
