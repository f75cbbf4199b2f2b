export type PaymentMethod = 'credit' | 'x402';

/** Account credit (a signed order) or USDC paid per x402 (a signed token transfer); nothing loads until chosen. */
export function PaymentMethodChoice({ value, onChange }: { value: PaymentMethod; onChange: (method: PaymentMethod) => void }) {
  const options: { method: PaymentMethod; label: string; hint: string }[] = [
    { method: 'credit', label: 'Account credit', hint: 'Paid from your balance with the service; needs you signed in.' },
    { method: 'x402', label: 'Pay with USDC (x402)', hint: 'A USDC transfer your wallet signs; no account balance or sign-in needed.' },
  ];
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 font-semibold">Payment</legend>
      {options.map((o) => (
        <label key={o.method} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="payment-method"
            value={o.method}
            checked={value === o.method}
            onChange={() => onChange(o.method)}
            className="mt-0.5 h-4 w-4 accent-brand-700"
          />
          <span>
            <span className="font-medium">{o.label}</span>
            <span className="block text-slate-600 dark:text-slate-400">{o.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
