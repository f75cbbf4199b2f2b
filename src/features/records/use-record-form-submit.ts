import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { SubmitProblem } from './components/RecordForm.tsx';
import type { SubmitMode } from './model/form-mode.ts';
import { fieldOfServerError, fieldOfZoneProblem, recordToSend } from './model/record-form-view.ts';
import type { RecordFormValues, RecordInput } from './model/record-form.ts';
import type { Problem } from './model/zone-check.ts';

/**
 * The record form's submit: the zone rules first (a problem lands on its field, nothing is signed), then the
 * caller's submit, whose field errors land on their fields and whose form error shows above the buttons. Answers
 * the submit for a mode, which mode is on the way, and the form error.
 */
export function useRecordFormSubmit({
  form,
  zoneName,
  notes,
  checkZone,
  onSubmit,
}: {
  form: UseFormReturn<RecordFormValues>;
  zoneName: string;
  notes: boolean;
  checkZone: (record: RecordInput, how: SubmitMode) => Problem | null;
  onSubmit: (record: RecordInput, how: SubmitMode) => Promise<SubmitProblem | null>;
}) {
  const [formError, setFormError] = useState<SubmitProblem['formError'] | null>(null);
  const [submitting, setSubmitting] = useState<SubmitMode | null>(null);
  const { handleSubmit, setError } = form;

  const submit = (how: SubmitMode) =>
    handleSubmit(async (valid) => {
      const input = recordToSend(valid, zoneName, notes);
      if (!input) return;
      setFormError(null);
      const problem = checkZone(input, how);
      if (problem) {
        setError(fieldOfZoneProblem(problem, valid.type), { type: 'zone', message: problem.message }, { shouldFocus: true });
        return;
      }
      setSubmitting(how);
      try {
        const result = await onSubmit(input, how);
        if (!result) return;
        for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
          setError(fieldOfServerError(field, valid.type), { type: 'server', message }, { shouldFocus: true });
        }
        if (result.formError) setFormError(result.formError);
      } finally {
        setSubmitting(null);
      }
    });

  return { submit, submitting, formError };
}
