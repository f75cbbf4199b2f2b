import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Dialog } from '@/ui/index.ts';
import { DNSSEC_OFF_WARNING, DNSSEC_ON_MEANS, DNSSEC_ON_NEXT, dnssecSigningLines } from '../dnssec-words.ts';

/** Says what turning DNSSEC on or off means and what comes next, before the wallet opens. */
export function DnssecDialog({ domain, enable, busy, onCancel, onConfirm }: { domain: string; enable: boolean; busy: boolean; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Dialog
      open
      onClose={onCancel}
      title={enable ? `Sign ${domain} with DNSSEC?` : `Stop signing ${domain}?`}
      description={enable ? DNSSEC_ON_MEANS : 'Answers for the domain will carry no signatures.'}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>Cancel</Button>
          <Button loading={busy} onClick={onConfirm}>{enable ? 'Turn DNSSEC on' : 'Turn DNSSEC off'}</Button>
        </>
      }
    >
      <p className="text-sm">{enable ? DNSSEC_ON_NEXT : DNSSEC_OFF_WARNING}</p>
      <SigningNotice lines={dnssecSigningLines(domain, enable)} />
    </Dialog>
  );
}
