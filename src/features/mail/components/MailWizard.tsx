import { useState, type FormEvent } from 'react';
import { fullName } from '#core/dns/names.ts';
import { txtFromWire } from '#core/dns/rdata.ts';
import { buildMailSetup, MAIL_PROVIDERS, type DmarcPolicy, type MailProviderId, type MailSetup, type MailSetupField, type MailSetupInput, type ZohoRegion } from '#core/mail/providers.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { Button, Checkbox, Dialog, Select, TextField } from '@/ui/index.ts';
import { withMailSetup } from '../model/wizard.ts';
import type { Draft } from '@/features/records/index.ts';

const ZOHO_REGIONS: Array<{ value: ZohoRegion; label: string }> = [
  { value: 'com', label: 'zoho.com (United States)' },
  { value: 'eu', label: 'zoho.eu (Europe)' },
  { value: 'in', label: 'zoho.in (India)' },
  { value: 'com.au', label: 'zoho.com.au (Australia)' },
  { value: 'jp', label: 'zoho.jp (Japan)' },
  { value: 'ca', label: 'zohocloud.ca (Canada)' },
];
const POLICIES: Array<{ value: DmarcPolicy; label: string }> = [
  { value: 'none', label: 'none: only send me reports (start here)' },
  { value: 'quarantine', label: 'quarantine: failing mail goes to spam' },
  { value: 'reject', label: 'reject: failing mail is refused' },
];

type Values = Partial<Record<MailSetupField, string>>;

export interface MailWizardProps {
  zoneName: string;
  zone: DnsRecord[];
  onClose: () => void;
  /** Puts the set-up into the change set (as one update of the draft) and shows it. */
  onAdd: (update: (draft: Draft) => Draft, count: number) => void;
}

/**
 * The mail-provider wizard: pick the provider, give what it needs, see every record (MX, SPF, DKIM, DMARC, MTA-STS,
 * TLS-RPT and the verification value) and which stored records they replace, then put them into the change set as one
 * set, to be reviewed and signed once on the Records tab.
 */
export function MailWizard({ zoneName, zone, onClose, onAdd }: MailWizardProps) {
  const [provider, setProvider] = useState<MailProviderId>('google');
  const [values, setValues] = useState<Values>({});
  const [region, setRegion] = useState<ZohoRegion>('com');
  const [policy, setPolicy] = useState<DmarcPolicy>('none');
  const [mtaSts, setMtaSts] = useState(true);
  const [setup, setSetup] = useState<MailSetup | null>(null);
  const spec = MAIL_PROVIDERS.find((p) => p.id === provider)!;
  const errors = setup && !setup.ok ? setup.errors : {};
  const set = (field: MailSetupField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setSetup(null);
  };

  const build = (event: FormEvent) => {
    event.preventDefault();
    const input: MailSetupInput = { ...values, zohoRegion: region, dmarcPolicy: policy, mtaSts, now: new Date() };
    setSetup(buildMailSetup(zoneName, provider, input));
  };
  const planned = setup?.ok ? withMailSetup({ creates: [], updates: [], deletes: [] }, zone, setup.records) : null;

  return (
    <Dialog open onClose={onClose} title="Set up mail for a provider" description={`The records ${zoneName} needs to send and receive mail with its provider`}>
      <form className="space-y-3" onSubmit={build}>
        <Select
          label="Mail provider"
          value={provider}
          onChange={(event) => {
            setProvider(event.target.value as MailProviderId);
            setSetup(null);
          }}
          options={MAIL_PROVIDERS.map((p) => ({ value: p.id, label: p.label }))}
          hint={
            <>
              Values from{' '}
              <a className="underline" href={spec.docs} target="_blank" rel="noreferrer">
                {spec.label}&rsquo;s set-up page
              </a>
              .
            </>
          }
        />
        {spec.inputs.map((input) =>
          input.field === 'zohoRegion' ? (
            <Select key={input.field} label={input.label} hint={input.hint} value={region} onChange={(event) => setRegion(event.target.value as ZohoRegion)} options={ZOHO_REGIONS} />
          ) : (
            <TextField
              key={`${provider}-${input.field}`}
              label={input.required ? input.label : `${input.label} (optional)`}
              hint={input.hint}
              value={values[input.field] ?? ''}
              onChange={(event) => set(input.field as MailSetupField, event.target.value)}
              error={errors[input.field as MailSetupField]}
              autoComplete="off"
              spellCheck={false}
            />
          ),
        )}
        <Select label="DMARC policy" value={policy} onChange={(event) => setPolicy(event.target.value as DmarcPolicy)} options={POLICIES} />
        <TextField label="DMARC reports to (optional)" hint={`dmarc@${zoneName} unless you give another address`} value={values.dmarcReports ?? ''} onChange={(event) => set('dmarcReports', event.target.value)} error={errors.dmarcReports} />
        <TextField label="TLS reports to (optional)" hint={`tls-reports@${zoneName} unless you give another address`} value={values.tlsReports ?? ''} onChange={(event) => set('tlsReports', event.target.value)} error={errors.tlsReports} />
        <Checkbox
          label="Publish MTA-STS"
          hint={`Senders then insist on encrypted delivery, once you serve the policy file at https://mta-sts.${zoneName}/.well-known/mta-sts.txt (shown after you build).`}
          checked={mtaSts}
          onChange={(event) => {
            setMtaSts(event.target.checked);
            setSetup(null);
          }}
        />
        <Button type="submit" variant="secondary">
          Build the records
        </Button>
      </form>
      {setup?.ok && planned ? (
        <section aria-label="The mail records" className="mt-4 space-y-2 text-sm">
          <p role="status" className="font-medium">
            {setup.records.length} records for {spec.label}
            {planned.replaced.length > 0 ? `; they replace ${planned.replaced.length} of the zone\u2019s records` : ''}. Nothing is signed yet.
          </p>
          <ul className="space-y-1 text-xs">
            {setup.records.map((r) => (
              <li key={`${r.name} ${r.type} ${r.rdata}`} className="break-all">
                <strong>{r.role}</strong>: {r.type} at {fullName(r.name, zoneName)}: <code>{r.type === 'TXT' ? txtFromWire(r.rdata) : r.rdata}</code>
              </li>
            ))}
          </ul>
          {planned.replaced.length > 0 ? (
            <div className="text-xs">
              <p className="font-medium">Replaced (if other services send mail as {zoneName}, add their include to the new SPF record before you sign):</p>
              <ul>
                {planned.replaced.map((r) => (
                  <li key={r.id} className="break-all">
                    {r.type} at {fullName(r.name, zoneName)}: <code>{r.type === 'TXT' ? txtFromWire(r.rdata) : r.rdata}</code>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {setup.notes.map((note) => (
            <p key={note} className="text-xs">
              {note}
            </p>
          ))}
          {setup.mtaStsPolicy ? (
            <pre aria-label="MTA-STS policy file" className="overflow-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">
              {setup.mtaStsPolicy.replace(/\r\n/g, '\n')}
            </pre>
          ) : null}
          <Button onClick={() => onAdd((draft) => withMailSetup(draft, zone, setup.records).draft, setup.records.length)}>Put them in the change set</Button>
        </section>
      ) : null}
    </Dialog>
  );
}
