import { useState } from 'react';
import { RECORD_TEMPLATES, templateErrors } from '#core/dns/templates.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { Button, Dialog, Select, TextField } from '@/ui/index.ts';
import { planImport } from '../model/zone-import.ts';
import type { RecordInput } from '../model/record-form.ts';
import { recordInWords } from '../model/describe.ts';

export interface TemplatesDialogProps {
  open: boolean;
  zoneName: string;
  zone: DnsRecord[];
  onAdd: (records: RecordInput[]) => void;
  onClose: () => void;
}

/** Common set-ups (web host, Google Workspace, Microsoft 365, SPF, DMARC) as records for the change set. */
export function TemplatesDialog({ open, zoneName, zone, onAdd, onClose }: TemplatesDialogProps) {
  const [id, setId] = useState(RECORD_TEMPLATES[0]?.id ?? '');
  const [params, setParams] = useState<Record<string, string>>({});
  const [shown, setShown] = useState(false);
  const template = RECORD_TEMPLATES.find((t) => t.id === id);
  const errors = template && shown ? templateErrors(template, params) : {};
  const ready = template && Object.keys(templateErrors(template, params)).length === 0;
  const plan = ready ? planImport(template.build(params, zoneName), zone) : null;

  return (
    <Dialog open={open} onClose={onClose} title="Add records from a template" description="The records go to the change set, compared with the zone first.">
      <Select
        label="Template"
        value={id}
        onChange={(event) => {
          setId(event.target.value);
          setParams({});
          setShown(false);
        }}
        options={RECORD_TEMPLATES.map((t) => ({ value: t.id, label: t.label }))}
        hint={template?.description}
      />
      {template?.params.map((param) => (
        <TextField
          key={`${template.id}-${param.key}`}
          label={param.required ? param.label : `${param.label} (optional)`}
          hint={`e.g. ${param.example}`}
          error={errors[param.key]}
          value={params[param.key] ?? ''}
          onChange={(event) => setParams({ ...params, [param.key]: event.target.value })}
          onBlur={() => setShown(true)}
        />
      ))}
      {plan ? (
        <div className="space-y-1 text-sm">
          <p className="font-medium">Records to add</p>
          <ul className="font-mono text-xs">
            {plan.creates.map((r) => (
              <li key={`${r.name}-${r.type}-${r.rdata}`}>+ {recordInWords(r, zoneName)}</li>
            ))}
          </ul>
          {plan.notes.map((n) => (
            <p key={n.text} className="text-xs text-slate-600 dark:text-slate-400">
              {n.text} — {n.reason}
            </p>
          ))}
        </div>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button
          onClick={() => {
            setShown(true);
            if (plan) onAdd(plan.creates);
          }}
          disabled={plan !== null && plan.creates.length === 0}
        >
          Add to change set
        </Button>
      </div>
    </Dialog>
  );
}
