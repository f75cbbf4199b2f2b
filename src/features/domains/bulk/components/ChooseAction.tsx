import { useState } from 'react';
import { RECORD_TYPES } from '#core/wire/dns.ts';
import { RECORD_TEMPLATES } from '#core/dns/templates.ts';
import { FORWARD_STATUS_CODES, targetHost, type ForwardStatusCode } from '#core/wire/forwarding.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { Button, Checkbox, Select, TextField } from '@/ui/index.ts';
import type { BulkChoice } from '../model/actions.ts';

export type ActionId = 'park' | 'unpark' | 'forward' | 'template' | 'record' | 'dnssec' | 'export';

/** The actions on a selection. One that needs an operation of ours (forwarding, DNSSEC) says so where the service lacks it. */
export function ChooseAction({ count, forwardingSupported, dnssecSupported, onPlan, onExport, busy }: {
  count: number;
  forwardingSupported: boolean;
  dnssecSupported: boolean;
  onPlan: (title: string, choice: BulkChoice) => void;
  onExport: () => void;
  busy: boolean;
}) {
  const [action, setAction] = useState<ActionId>('park');
  const [targetUrl, setTargetUrl] = useState('');
  const [statusCode, setStatusCode] = useState<ForwardStatusCode>(301);
  const [keepPath, setKeepPath] = useState(true);
  const [dnssecOn, setDnssecOn] = useState(true);
  const [templateId, setTemplateId] = useState(RECORD_TEMPLATES[0].id);
  const [record, setRecord] = useState<{ name: string; type: RecordType; rdata: string; ttl: string }>({ name: '@', type: 'TXT', rdata: '', ttl: '3600' });
  const needsOurs = ' (needs this project\u2019s service)';
  const options = [
    { value: 'park', label: 'Park' },
    { value: 'unpark', label: 'Unpark' },
    { value: 'forward', label: `Forward to one URL${forwardingSupported ? '' : needsOurs}` },
    { value: 'template', label: 'Apply a template' },
    { value: 'record', label: 'Add one record to each' },
    { value: 'dnssec', label: `Turn DNSSEC on or off${dnssecSupported ? '' : needsOurs}` },
    { value: 'export', label: 'Export every zone (zip)' },
  ];
  const template = RECORD_TEMPLATES.find((t) => t.id === templateId)!;
  const unavailable = (action === 'dnssec' && !dnssecSupported) || (action === 'forward' && !forwardingSupported);

  function submit() {
    if (action === 'export') return onExport();
    if (action === 'park') return onPlan(`Park ${count} domains`, { kind: 'park' });
    if (action === 'unpark') return onPlan(`Unpark ${count} domains`, { kind: 'unpark' });
    if (action === 'forward') return onPlan(`Forward ${count} domains to ${targetUrl}`, { kind: 'forward', targetUrl, statusCode, keepPath });
    if (action === 'dnssec') return onPlan(`Turn DNSSEC ${dnssecOn ? 'on' : 'off'} for ${count} domains`, { kind: 'dnssec', enabled: dnssecOn });
    if (action === 'template') return onPlan(`${template.label} on ${count} domains`, { kind: 'records', build: (zone) => template.build({}, zone) });
    if (action === 'record') {
      const r = { name: record.name.trim() || '@', type: record.type, rdata: record.rdata.trim(), ttl: Number(record.ttl) };
      return onPlan(`Add ${r.name} ${r.type} to ${count} domains`, { kind: 'records', build: () => [r] });
    }
  }

  const ready =
    !unavailable &&
    (action !== 'forward' || targetHost(targetUrl) !== null) &&
    (action !== 'record' || (record.rdata.trim() !== '' && /^\d+$/.test(record.ttl))) &&
    (action !== 'template' || template.params.every((p) => !p.required));
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) submit();
      }}
    >
      <Select label={`Do with the ${count} selected`} value={action} options={options} onChange={(e) => setAction(e.target.value as ActionId)} />
      {unavailable ? <p className="text-sm" role="note">This needs this project&rsquo;s own service: the service this dashboard is connected to does not offer it.</p> : null}
      {action === 'forward' && forwardingSupported ? (
        <div className="space-y-2">
          <TextField label="Forward to" placeholder="https://example.org/" value={targetUrl} onChange={(e) => setTargetUrl(e.target.value.trim())} />
          <Select label="Kind of redirect" value={String(statusCode)} options={FORWARD_STATUS_CODES.map((c) => ({ value: String(c), label: String(c) }))} onChange={(e) => setStatusCode(Number(e.target.value) as ForwardStatusCode)} />
          <Checkbox label="Keep the path and query" checked={keepPath} onChange={(e) => setKeepPath(e.target.checked)} />
        </div>
      ) : null}
      {action === 'dnssec' && dnssecSupported ? (
        <Select label="DNSSEC" value={dnssecOn ? 'on' : 'off'} options={[{ value: 'on', label: 'Turn on (sign the zones)' }, { value: 'off', label: 'Turn off (stop signing)' }]} onChange={(e) => setDnssecOn(e.target.value === 'on')} />
      ) : null}
      {action === 'template' ? (
        <div className="space-y-1">
          <Select label="Template" value={templateId} options={RECORD_TEMPLATES.map((t) => ({ value: t.id, label: t.label }))} onChange={(e) => setTemplateId(e.target.value)} />
          <p className="text-sm text-slate-600 dark:text-slate-400">{template.description}</p>
          {template.params.some((p) => p.required) ? <p className="text-sm" role="note">This template needs values per domain: apply it from each domain&rsquo;s records page.</p> : null}
        </div>
      ) : null}
      {action === 'record' ? (
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          <TextField label="Name" value={record.name} onChange={(e) => setRecord({ ...record, name: e.target.value })} />
          <Select label="Type" value={record.type} options={RECORD_TYPES.map((t) => ({ value: t, label: t }))} onChange={(e) => setRecord({ ...record, type: e.target.value as RecordType })} />
          <TextField label="Value" value={record.rdata} onChange={(e) => setRecord({ ...record, rdata: e.target.value })} />
          <TextField label="TTL" value={record.ttl} inputMode="numeric" onChange={(e) => setRecord({ ...record, ttl: e.target.value })} />
        </div>
      ) : null}
      <Button type="submit" loading={busy} disabled={!ready}>{action === 'export' ? 'Download the zip' : 'Review the plan'}</Button>
    </form>
  );
}
