import { useState } from 'react';
import { explainError } from '@/lib/errors/explain.ts';
import { Button, TextField } from '@/ui/index.ts';
import { useTryForwarding } from '../api/try-forwarding.ts';

/** "Try it": the service requests its forwarder for a path of the domain and shows the redirect it answered. */
export function TryForwarding({ domain }: { domain: string }) {
  const [path, setPath] = useState('/');
  const trial = useTryForwarding(domain);
  const usable = /^\/(?!\/)\S*$/.test(path);
  return (
    <form
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (usable) trial.mutate(path);
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        <TextField label={`Try a path of ${domain}`} value={path} onChange={(e) => setPath(e.target.value)} error={usable ? undefined : 'Start with a single /, like /a?b=1'} />
        <Button type="submit" variant="secondary" loading={trial.isPending} disabled={!usable}>Try it</Button>
      </div>
      <div role="status" aria-live="polite" className="text-sm">
        {trial.data ? (
          <p>
            The forwarder answered <code>{trial.data.url}</code> with <strong>{trial.data.status}</strong>
            {trial.data.location ? (
              <>
                {' '}→ <code data-testid="forwarding-location">{trial.data.location}</code>
              </>
            ) : (
              ' and no redirect'
            )}
          </p>
        ) : trial.error ? (
          <p>{explainError(trial.error, { domain }).title}</p>
        ) : null}
      </div>
    </form>
  );
}
