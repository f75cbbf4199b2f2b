import { useState } from 'react';
import { RECORD_TEMPLATES, TemplateParamError, type TemplateRecord } from '#core/dns/templates.ts';
import { Button, Select, TextField } from '@/ui/index.ts';

/** Builds records from one of core's templates (web host, mail providers, SPF, DMARC) for the new domain. */
export function TemplatePicker({ domain, onAdd }: { domain: string; onAdd: (records: TemplateRecord[]) => void }) {
  const [templateId, setTemplateId] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const template = RECORD_TEMPLATES.find((t) => t.id === templateId);

  function add() {
    if (!template) return;
    try {
      onAdd(template.build(values, domain));
      setTemplateId('');
      setValues({});
      setErrors({});
    } catch (error) {
      if (error instanceof TemplateParamError) setErrors(error.errors);
      else throw error;
    }
  }

  return (
    <div className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <Select
        label="Start from a template"
        value={templateId}
        onChange={(e) => {
          setTemplateId(e.target.value);
          setValues({});
          setErrors({});
        }}
        options={[{ value: '', label: 'Choose a template…' }, ...RECORD_TEMPLATES.map((t) => ({ value: t.id, label: t.label }))]}
      />
      {template ? (
        <>
          <p className="text-sm text-slate-600 dark:text-slate-400">{template.description}</p>
          {template.params.map((param) => (
            <TextField
              key={param.key}
              label={param.required ? param.label : `${param.label} (optional)`}
              hint={`For example ${param.example}`}
              value={values[param.key] ?? ''}
              error={errors[param.key]}
              onChange={(e) => setValues((v) => ({ ...v, [param.key]: e.target.value }))}
            />
          ))}
          <Button type="button" variant="secondary" size="sm" onClick={add}>
            Add {template.label} records
          </Button>
        </>
      ) : null}
    </div>
  );
}
