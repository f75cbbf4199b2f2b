import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog } from '@/ui/index.ts';
import { ROLLOVER_MEANS, rolloverSigningLines, type SigningChoice } from '../dnssec-words.ts';

/** Says what an algorithm rollover does and what the owner will be asked to do, before the wallet opens. */
export function RolloverDialog({ domain, from, choice, busy, onCancel, onConfirm }: { domain: string; from: number; choice: SigningChoice; busy: boolean; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Dialog
      open
      onClose={onCancel}
      title={`Roll ${domain} over to algorithm ${choice.algorithm}?`}
      description={ROLLOVER_MEANS}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>Cancel</Button>
          <Button loading={busy} onClick={onConfirm}>Start the rollover</Button>
        </>
      }
    >
      <SigningNotice lines={rolloverSigningLines(domain, from, choice)} />
    </Dialog>
  );
}
