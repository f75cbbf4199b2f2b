import type { UseFormRegister } from 'react-hook-form';
import { Select, TextField } from '@/ui/index.ts';
import { conversionText, type NameConversion } from '../model/idna-fields.ts';
import type { FieldSpec } from '../model/record-fields.ts';
import type { RecordFormValues } from '../model/record-form.ts';

/** One field of a type's record data: a select of its options, a text area for long text, or a text field. */
export function RdataField({
  spec,
  current,
  error,
  register,
  conversion,
}: {
  spec: FieldSpec;
  /** The field's value now: a stored value outside the options (an unknown CAA tag) stays selectable. */
  current?: string;
  error?: string;
  register: UseFormRegister<RecordFormValues>;
  conversion?: NameConversion;
}) {
  const hint = conversion ? `${conversionText(conversion)} (sent as the xn-- form)` : `e.g. ${spec.example}`;
  if (spec.options) {
    const options = current && !spec.options.some((o) => o.value === current) ? [...spec.options, { value: current, label: `${current} (not in the registry)` }] : spec.options;
    return <Select label={spec.label} options={options} error={error} hint={hint} {...register(spec.key)} />;
  }
  if (spec.multiline) {
    return (
      <div className="space-y-1 sm:col-span-2">
        <label htmlFor={`field-${spec.key}`} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          {spec.label}
        </label>
        <textarea
          id={`field-${spec.key}`}
          rows={3}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={`field-${spec.key}-help`}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm dark:border-slate-600 dark:bg-slate-900"
          {...register(spec.key)}
        />
        <p id={`field-${spec.key}-help`} className={error ? 'text-xs font-medium text-red-700 dark:text-red-400' : 'text-xs text-slate-600 dark:text-slate-400'}>
          {error ?? `${hint}. Long text is split into 255-byte strings for you (up to 65,535 bytes).`}
        </p>
      </div>
    );
  }
  const wide = spec.max === undefined;
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <TextField label={spec.label} hint={hint} error={error} autoComplete="off" spellCheck={false} inputMode={wide ? 'text' : 'numeric'} {...register(spec.key)} />
    </div>
  );
}
