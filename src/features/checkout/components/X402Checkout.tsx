import { useState } from 'react';
import { Card } from '@/ui/index.ts';
import type { YearsRange } from '../checkout-form.ts';
import { X402Payment } from './X402Payment.tsx';
import { YearsField } from './YearsField.tsx';

/** Checkout for a person who is not signed in: x402 needs only a wallet's signature, so the years and USDC are here. */
export function X402Checkout({ domain, range, initialYears }: { domain: string; range: YearsRange; initialYears: number }) {
  const [typed, setTyped] = useState(String(initialYears));
  const years = Number(typed);
  const valid = Number.isInteger(years) && years >= range.min && years <= range.max;
  return (
    <Card className="space-y-4">
      <p className="text-sm">Or buy it without signing in, paying with USDC from your wallet.</p>
      <YearsField
        range={range}
        error={valid ? undefined : `Between ${range.min} and ${range.max} whole years`}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
      <X402Payment domain={domain} years={valid ? years : undefined} />
    </Card>
  );
}
