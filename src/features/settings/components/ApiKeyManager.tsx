import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ApiKeySummary, CreatedApiKey } from '#core/wire/user.ts';
import { isApiError } from '@/lib/api/errors.ts';
import { explainError } from '@/lib/errors/explain.ts';
import { useWalletSession } from '@/lib/session/wallet-session.ts';
import { useSettings } from '@/lib/settings/settings-store.ts';
import { Button, Card, EmptyState, Spinner, useToast } from '@/ui/index.ts';
import { keyFormSchema, scopeOf, type KeyForm } from '../model/key-scope.ts';
import { apiKeysQuery } from '../api/list-api-keys.ts';
import { useCreateApiKey } from '../api/create-api-key.ts';
import { useRevokeApiKey } from '../api/revoke-api-key.ts';
import { ApiKeyTable, CreatedKeyDialog, NewKeyForm, RevokeKeyDialog } from './ApiKeyParts.tsx';

/** Create, list and revoke the wallet's API keys (backed by the service, SIWE session or API key). */
export function ApiKeyManager() {
  const session = useWalletSession();
  const settings = useSettings();
  const canCall = session.status === 'signed-in' || !!settings.apiKey;
  const keys = useQuery({ ...apiKeysQuery(session.address), enabled: canCall });
  const create = useCreateApiKey(session.address);
  const revoke = useRevokeApiKey(session.address);
  const { toast } = useToast();
  const [created, setCreated] = useState<CreatedApiKey>();
  const [toRevoke, setToRevoke] = useState<ApiKeySummary>();
  const blank: KeyForm = { label: '', limited: false, zones: '', names: '', types: '', access: 'write', until: '', cidrs: '' };
  const form = useForm<KeyForm>({ resolver: zodResolver(keyFormSchema), defaultValues: blank });
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
          <NewKeyForm form={form} onCreate={onCreate} creating={create.isPending} />
          {keys.isPending ? (
            <Spinner label="Loading API keys" />
          ) : keys.isError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {explainError(keys.error).title}. {explainError(keys.error).description}
            </p>
          ) : keys.data.length === 0 ? (
            <EmptyState title="No API keys yet" description="Create one above to use the service from scripts." />
          ) : (
            <ApiKeyTable keys={keys.data} onRevoke={setToRevoke} />
          )}
        </>
      )}

      <CreatedKeyDialog
        created={created}
        onCopy={(key) => void navigator.clipboard?.writeText(key).then(() => toast({ tone: 'success', title: 'Key copied' }))}
        onClose={() => setCreated(undefined)}
      />

      <RevokeKeyDialog toRevoke={toRevoke} revoking={revoke.isPending} onRevoke={() => void onRevoke()} onClose={() => setToRevoke(undefined)} />
    </Card>
  );
}
