import type { UseFormReturn } from 'react-hook-form';
import type { ApiKeySummary, CreatedApiKey } from '#core/wire/user.ts';
import { Badge, Button, Checkbox, Dialog, Select, TextField } from '@/ui/index.ts';
import { keyScopeInWords, scopeOf, type KeyForm } from '../model/key-scope.ts';

/** The API key manager's parts (ApiKeyManager.tsx holds their state): the new key's form, the list, and the two dialogs. */

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A new key: its label, and, when limited, the domains, access, names, types, end and addresses it is limited to. */
export function NewKeyForm({ form, onCreate, creating }: { form: UseFormReturn<KeyForm>; onCreate: (values: KeyForm) => Promise<void>; creating: boolean }) {
  const values = form.watch();
  const errors = form.formState.errors;
  return (
    <form onSubmit={form.handleSubmit(onCreate)} noValidate className="space-y-2">
      <div className="flex flex-wrap items-start gap-2">
        <div className="min-w-56 flex-1">
          <TextField label="New key label" error={errors.label?.message} hint="For example: deploy script" {...form.register('label')} />
        </div>
        <Button type="submit" loading={creating} className="sm:mt-6">
          Create key
        </Button>
      </div>
      <Checkbox label="Limit what this key may do" hint="Without limits a key acts as your wallet on every domain" {...form.register('limited')} />
      {values.limited ? (
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
  );
}

/** The wallet's keys: label, prefix, what each may do, when created and last used, and a way to revoke each. */
export function ApiKeyTable({ keys, onRevoke }: { keys: ApiKeySummary[]; onRevoke: (key: ApiKeySummary) => void }) {
  return (
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
          {keys.map((key) => (
            <tr key={key.id}>
              <th scope="row" className="py-2 pr-4 font-medium">{key.label}</th>
              <td className="py-2 pr-4 font-mono">{key.prefix}…</td>
              <td className="py-2 pr-4">
                {key.scope ? null : <Badge tone="warning">Unlimited</Badge>} {keyScopeInWords(key.scope)}
              </td>
              <td className="py-2 pr-4">{dateFormat.format(new Date(key.createdAt))}</td>
              <td className="py-2 pr-4">{key.lastUsedAt ? dateFormat.format(new Date(key.lastUsedAt)) : 'Never'}</td>
              <td className="py-2 text-right">
                <Button size="sm" variant="secondary" onClick={() => onRevoke(key)} aria-label={`Revoke ${key.label}`}>
                  Revoke
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The new key, shown once, with a way to copy it. */
export function CreatedKeyDialog({ created, onCopy, onClose }: { created: CreatedApiKey | undefined; onCopy: (key: string) => void; onClose: () => void }) {
  return (
    <Dialog
      open={!!created}
      onClose={onClose}
      title="Your new API key"
      description="Copy it now: it will not be shown again."
      footer={
        <>
          <Button
            variant="secondary"
            onClick={() => {
              if (created) onCopy(created.key);
            }}
          >
            Copy key
          </Button>
          <Button onClick={onClose}>Done</Button>
        </>
      }
    >
      <TextField label={`Key “${created?.label ?? ''}”`} value={created?.key ?? ''} readOnly className="font-mono" onFocus={(e) => e.target.select()} />
    </Dialog>
  );
}

/** Revoking a key asks first: scripts using it stop at once. */
export function RevokeKeyDialog({ toRevoke, revoking, onRevoke, onClose }: { toRevoke: ApiKeySummary | undefined; revoking: boolean; onRevoke: () => void; onClose: () => void }) {
  return (
    <Dialog
      open={!!toRevoke}
      onClose={onClose}
      title={`Revoke “${toRevoke?.label ?? ''}”?`}
      description="Scripts using this key stop working at once. This cannot be undone."
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Keep key
          </Button>
          <Button variant="danger" loading={revoking} onClick={onRevoke}>
            Revoke key
          </Button>
        </>
      }
    />
  );
}
