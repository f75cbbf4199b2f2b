import { useState, type FormEvent } from 'react';
import { Badge, Button, Card, Checkbox, Select, TextField, useToast } from '@/ui/index.ts';
import { setApiKey, setDelegatedAccount, useSettings, type DelegatedKind } from '@/lib/settings/settings-store.ts';
import { addressError, apiKeyError } from '../validation.ts';

const REMEMBER_HINT =
  'Ticked, the key is saved in this browser’s localStorage: anyone using this browser profile, and any script running on this site, can read it. ' +
  'Unticked, it is kept only in memory for this tab and is gone when the page reloads or closes.';

/** An API key used instead of signatures, and a delegated smart account the wallet signs for. */
export function CredentialsSection() {
  const settings = useSettings();
  const { toast } = useToast();
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(settings.rememberApiKey);
  const [keyError, setKeyError] = useState<string>();
  const [delegated, setDelegated] = useState<string>(settings.delegated?.address ?? '');
  const [kind, setKind] = useState<DelegatedKind>(settings.delegated?.kind ?? 'eip7702');
  const [delegatedErr, setDelegatedErr] = useState<string>();

  const saveKey = (event: FormEvent) => {
    event.preventDefault();
    const problem = apiKeyError(key);
    setKeyError(problem);
    if (problem) return;
    setApiKey(key, remember);
    setKey('');
    toast({
      tone: 'success',
      title: 'API key in use',
      description: remember ? 'Kept in this browser until you forget it or untick “Remember on this device”.' : 'Held in memory only: gone when this tab reloads or closes.',
    });
  };
  // The box says where the key in use lives, so changing it acts at once: unticking removes the key from
  // this browser's storage (it stays in memory for this tab), ticking stores the key in use.
  const changeRemember = (checked: boolean) => {
    setRemember(checked);
    if (settings.apiKey) setApiKey(settings.apiKey, checked);
  };
  const forgetKey = () => {
    setApiKey(undefined, false);
    setRemember(false);
  };
  const saveDelegated = (event: FormEvent) => {
    event.preventDefault();
    const problem = addressError(delegated);
    setDelegatedErr(problem);
    if (problem) return;
    setDelegatedAccount({ address: delegated.trim() as `0x${string}`, kind });
    toast({
      tone: 'success',
      title: 'Delegated account saved',
      description: 'Your wallet now signs for this smart account; sign in again to act for it (the account must accept your wallet as a signer).',
    });
  };

  return (
    <Card className="space-y-6">
      <section aria-labelledby="api-key-heading" className="space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="api-key-heading" className="text-lg font-semibold">
            API key
          </h2>
          {settings.apiKey ? <Badge tone="success">In use: {settings.apiKey.slice(0, 8)}…</Badge> : <Badge>Not set</Badge>}
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          With an API key, changes are made without asking your wallet to sign each one. It acts as the wallet that created it.
        </p>
        <form onSubmit={saveKey} noValidate className="space-y-3">
          <TextField
            label="API key"
            type="password"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            error={keyError}
            hint="Looks like nfk_ followed by 43 characters."
          />
          <Checkbox
            label="Remember on this device"
            hint={REMEMBER_HINT}
            checked={remember}
            onChange={(e) => changeRemember(e.target.checked)}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit">Use this key</Button>
            {settings.apiKey ? (
              <Button variant="secondary" onClick={forgetKey}>
                Forget key
              </Button>
            ) : null}
          </div>
        </form>
      </section>

      <section aria-labelledby="delegated-heading" className="space-y-3">
        <h2 id="delegated-heading" className="text-lg font-semibold">
          Delegated smart account
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          If your wallet signs for a smart account (ERC-1271 or EIP-7702), name it here: you then sign in as that account, its domains and
          balance are the ones shown, and the service asks the account to confirm each signature of your wallet. The account must accept your
          wallet as a signer. A smart-account wallet that signs as itself needs nothing here.
        </p>
        <form onSubmit={saveDelegated} noValidate className="space-y-3">
          <TextField
            label="Smart account address"
            value={delegated}
            onChange={(e) => setDelegated(e.target.value)}
            error={delegatedErr}
            hint="For example 0x0000000000000000000000000000000000000001"
            autoComplete="off"
          />
          <Select
            label="Account kind"
            value={kind}
            onChange={(e) => setKind(e.target.value as DelegatedKind)}
            options={[
              { value: 'eip7702', label: 'EIP-7702 delegated account' },
              { value: 'erc1271', label: 'ERC-1271 contract account' },
            ]}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit">Save smart account</Button>
            {settings.delegated ? (
              <Button
                variant="secondary"
                onClick={() => {
                  setDelegatedAccount(undefined);
                  setDelegated('');
                }}
              >
                Stop using it
              </Button>
            ) : null}
          </div>
        </form>
      </section>
    </Card>
  );
}
