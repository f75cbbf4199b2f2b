import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog } from '@/ui/index.ts';
import type { ForwardingChoice } from '../api/set-forwarding.ts';
import { forwardingPlan } from '../forwarding-words.ts';

/** Says what will happen, in words, and what the wallet signs, before it opens. */
export function ForwardDialog({ domain, choice, parked, busy, onCancel, onConfirm }: {
  domain: string;
  choice: ForwardingChoice;
  parked: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const plan = forwardingPlan(domain, choice, parked);
  return (
    <Dialog
      open
      onClose={onCancel}
      title={choice.enabled ? `Forward ${domain}?` : `Stop forwarding ${domain}?`}
      description="What will happen:"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>Cancel</Button>
          <Button loading={busy} onClick={onConfirm}>{choice.enabled ? 'Sign and forward' : 'Sign and stop forwarding'}</Button>
        </>
      }
    >
      <ul className="list-disc space-y-1 pl-5 text-sm">
        {plan.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <SigningNotice
        lines={[
          choice.enabled
            ? `SetForwarding for ${domain}: enabled, ${choice.targetUrl}, status ${choice.statusCode}, ${choice.keepPath ? 'keep path' : 'drop path'}`
            : `SetForwarding for ${domain}: disabled`,
        ]}
      />
    </Dialog>
  );
}
