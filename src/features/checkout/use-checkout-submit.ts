import { useEffect, useState } from 'react';
import type { Path, UseFormReturn } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { useRegisterDomain } from './api/register-domain.ts';
import { registrationRequest, type CheckoutValues } from './checkout-form.ts';
import { noticesForError, type CheckoutNotices } from './checkout-view.ts';

/** Keeps the chosen years in the URL: a reload or a sign-in detour comes back to the same choice. */
export function useYearsInUrl(years: number) {
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    if (!Number.isInteger(years) || String(years) === params.get('years')) return;
    const next = new URLSearchParams(params);
    next.set('years', String(years));
    setParams(next, { replace: true });
  }, [years, params, setParams]);
}

/**
 * The checkout's Pay: registers (signing in the wallet) and opens the order's page; a failure is placed where
 * noticesForError says, field errors on their fields.
 */
export function useCheckoutSubmit({ domain, form, register }: { domain: string; form: UseFormReturn<CheckoutValues>; register: ReturnType<typeof useRegisterDomain> }) {
  const navigate = useNavigate();
  const [notices, setNotices] = useState<CheckoutNotices>({});
  const { handleSubmit, setError } = form;
  const onSubmit = handleSubmit(async (values) => {
    setNotices({});
    try {
      const order = await register.mutateAsync(registrationRequest(domain, values));
      navigate(`/orders/${encodeURIComponent(order.id)}`);
    } catch (error) {
      const placed = noticesForError(error, domain);
      for (const { field, message } of placed.fieldErrors) setError(field as Path<CheckoutValues>, { message }, { shouldFocus: true });
      setNotices(placed.notices);
    }
  });
  return { onSubmit, notices };
}
