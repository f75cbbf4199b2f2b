import { useState, type FormEvent } from 'react';
import { Button, Card, TextField } from '@/ui/index.ts';
import { config, normaliseServiceUrl } from '@/lib/config.ts';
import { setServiceUrl } from '@/lib/settings/settings-store.ts';
import { connectOrigins } from '@/app/csp.ts';
import { serviceUrlError, type ServicePolicy } from '../validation.ts';

// The production build's Content-Security-Policy lets the page connect only to the origins its environment
// named, so a service elsewhere would be blocked by the browser: refuse it here, where it is typed. The dev
// server sends no policy.
const policy: ServicePolicy | undefined = import.meta.env.PROD
  ? { origins: connectOrigins(import.meta.env as Record<string, string | undefined>), pageOrigin: window.location.origin }
  : undefined;

/** Which service the dashboard talks to. Changing it reloads: sessions and caches belong to one service. */
export function ServiceSection() {
  const [value, setValue] = useState(config.apiBaseUrl);
  const [error, setError] = useState<string>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = serviceUrlError(value, policy);
    setError(problem);
    if (problem) return;
    const url = normaliseServiceUrl(value);
    setServiceUrl(url === config.defaultApiBaseUrl ? undefined : url);
    window.location.reload();
  };
  return (
    <Card>
      <h2 className="text-lg font-semibold">Service</h2>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        {config.isLocalService ? 'You are using the local service: test credit is free.' : 'You are using a remote service.'}
      </p>
      <form onSubmit={onSubmit} noValidate className="space-y-3">
        <TextField
          label="Service URL"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={error}
          hint={`For example https://api.namefi.io/v-next. Changing it signs you out and reloads the page.${policy ? ` This build may connect to ${policy.origins.join(', ')}.` : ''}`}
          inputMode="url"
          autoComplete="off"
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={normaliseServiceUrl(value) === config.apiBaseUrl}>
            Use this service
          </Button>
          {config.apiBaseUrl !== config.defaultApiBaseUrl ? (
            <Button
              variant="secondary"
              onClick={() => {
                setServiceUrl(undefined);
                window.location.reload();
              }}
            >
              Back to {config.defaultApiBaseUrl}
            </Button>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
