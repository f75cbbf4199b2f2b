import { useFieldArray, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { RDATA_EXAMPLES } from '#core/dns/rdata.ts';
import { RECORD_TYPES } from '#core/wire/dns.ts';
import { Button, Select, TextField } from '@/ui/index.ts';
import { BLANK_RECORD, type CheckoutValues } from '../checkout-form.ts';
import { TemplatePicker } from './TemplatePicker.tsx';

// SOA and the apex NS belong to the provider; the service refuses them.
const TYPE_OPTIONS = RECORD_TYPES.filter((t) => t !== 'SOA').map((t) => ({ value: t, label: t }));

/** A compact editor for the records to create once the domain is registered: type, name, content, TTL. */
export function RecordRowsEditor({ domain, control, register, errors }: {
  domain: string;
  control: Control<CheckoutValues>;
  register: UseFormRegister<CheckoutValues>;
  errors: FieldErrors<CheckoutValues>['records'];
}) {
  const { fields, append, remove } = useFieldArray({ control, name: 'records' });
  return (
    <fieldset className="space-y-3">
      <legend className="text-base font-semibold">Records to create (optional)</legend>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Without records the new domain starts parked. Records added here are created as soon as it is registered.
      </p>
      {fields.length > 0 ? (
        <ol className="space-y-3">
          {fields.map((field, index) => {
            const rowErrors = errors?.[index];
            return (
              <li key={field.id} aria-label={`Record ${index + 1}`} className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[7rem_1fr_2fr_6rem_auto] sm:items-start dark:border-slate-700">
                <Select label={`Type of record ${index + 1}`} options={TYPE_OPTIONS} {...register(`records.${index}.type`)} error={rowErrors?.type?.message} />
                <TextField label={`Name of record ${index + 1}`} hint={`@ for ${domain}`} {...register(`records.${index}.name`)} error={rowErrors?.name?.message} />
                <TextField
                  label={`Content of record ${index + 1}`}
                  placeholder={RDATA_EXAMPLES[field.type] ?? ''}
                  {...register(`records.${index}.rdata`)}
                  error={rowErrors?.rdata?.message}
                />
                <TextField label={`TTL of record ${index + 1}`} {...register(`records.${index}.ttl`)} error={rowErrors?.ttl?.message} />
                <Button type="button" variant="ghost" size="sm" className="sm:mt-6" onClick={() => remove(index)} aria-label={`Remove record ${index + 1}`}>
                  Remove
                </Button>
              </li>
            );
          })}
        </ol>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" size="sm" onClick={() => append({ ...BLANK_RECORD })}>
          Add a blank record
        </Button>
      </div>
      <TemplatePicker
        domain={domain}
        onAdd={(records) => append(records.map((r) => ({ type: r.type, name: r.name, rdata: r.rdata, ttl: String(r.ttl) })))}
      />
    </fieldset>
  );
}
