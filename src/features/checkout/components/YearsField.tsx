import { TextField, type TextFieldProps } from '@/ui/index.ts';
import type { YearsRange } from '../checkout-form.ts';

/** How many years to register, within the name's range: the credit checkout and the signed-out x402 one share it. */
export function YearsField({ range, ...rest }: { range: YearsRange } & Omit<TextFieldProps, 'label' | 'type' | 'inputMode' | 'min' | 'max' | 'step' | 'hint'>) {
  return (
    <TextField
      label="Years"
      type="number"
      inputMode="numeric"
      min={range.min}
      max={range.max}
      step={1}
      hint={`Between ${range.min} and ${range.max} years`}
      {...rest}
    />
  );
}
