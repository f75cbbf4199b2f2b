import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ApiKeySummary, CreatedApiKey } from '#core/wire/user.ts';
import { isApiError } from '@/lib/api/errors.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { Badge, Button, Card, Checkbox, Dialog, EmptyState, Select, Spinner, TextField, useToast } from '@/ui/index.ts';
import { keyFormSchema, keyScopeInWords, scopeOf, type KeyForm } from '../model/key-scope.ts';
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
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const { toast } = useToast();
  const [created, setCreated] = useState<CreatedApiKey>();
  const [toRevoke, setToRevoke] = useState<ApiKeySummary>();
  const blank: KeyForm = { label: '', limited: false, zones: '', names: '', types: '', access: 'write', until: '', cidrs: '' };
  const form = useForm<KeyForm>({ resolver: zodResolver(keyFormSchema), defaultValues: blank });
  const values = form.watch();
  const limited = values.limited;
  const errors = form.formState.errors;

  const onCreate = async (values: KeyForm) => {
    try {
      setCreated(await create.mutateAsync({ label: values.label.trim(), ...(values.limited ? { scope: scopeOf(values) } : {}) }));
      form.reset(blank);
    } catch (error) {
      if (isApiError(error) && error.fieldErrors.label) form.setError('label', { message: error.fieldErrors.label[0] });
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
          <form onSubmit={form.handleSubmit(onCreate)} noValidate className="space-y-2">
            <div className="flex flex-wrap items-start gap-2">
              <div className="min-w-56 flex-1">
                <TextField label="New key label" error={errors.label?.message} hint="For example: deploy script" {...form.register('label')} />
              </div>
              <Button type="submit" loading={create.isPending} className="sm:mt-6">
                Create key
              </Button>
            </div>
            <Checkbox label="Limit what this key may do" hint="Without limits a key acts as your wallet on every domain" {...form.register('limited')} />
            {limited ? (
              <div className="grid gap-2 sm:grid-cols-2">
                <TextField label="Domains" hint="Separated by commas; empty: every domain you own" error={errors.zones?.message} {...form.register('zones')} />
                <Select label="Access" options={[{ value: 'write', label: 'Read and write' }, { value: 'read', label: 'Read only' }]} {...form.register('access')} />
                <TextField label="Names" hint="www, _acme, *.dev; empty: every name" error={errors.names?.message} {...form.register('names')} />
                <TextField label="Record types" hint="A, TXT; empty: every type" error={errors.types?.message} {...form.register('types')} />
                <TextField label="Valid until" type="date" hint="Empty: until you revoke it" error={errors.until?.message} {...form.register('until')} />
                <TextField label="Allowed addresses" hint="CIDR ranges, like 203.0.113.0/24; empty: any" error={errors.cidrs?.message} {...form.register('cidrs')} />
                <p className="text-sm sm:col-span-2" role="status">
                  This key: {keyScopeInWords(scopeOf(values))}. It cannot create keys.
                </p>
              </div>
            ) : null}
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
                    <th scope="col" className="py-2 pr-4">May do</th>
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
                      <td className="py-2 pr-4">
                        {key.scope ? null : <Badge tone="warning">Unlimited</Badge>} {keyScopeInWords(key.scope)}
                      </td>
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
