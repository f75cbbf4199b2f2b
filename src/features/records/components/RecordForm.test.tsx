// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { signingDomainQuery } from '@/lib/signing/signing-queries.ts';
import userEvent from '@testing-library/user-event';
import { blankFormValues, toFormValues } from '../model/record-form.ts';
import { RecordForm } from './RecordForm.tsx';

afterEach(cleanup);

function setup(overrides: Partial<Parameters<typeof RecordForm>[0]> = {}) {
  const onSubmit = vi.fn(async () => null);
  const checkZone = vi.fn(() => null);
  // The service's answer at /eip712/domain, as a page that signs has it cached.
  const queryClient = new QueryClient();
  queryClient.setQueryData(signingDomainQuery().queryKey, { name: 'Namefi Local', version: '1' });
  render(
    <QueryClientProvider client={queryClient}>
      <RecordForm zoneName="example.com" initial={blankFormValues('A', '@')} mode="add" checkZone={checkZone} onSubmit={onSubmit} onCancel={() => {}} {...overrides} />
    </QueryClientProvider>,
  );
  return { onSubmit, checkZone, user: userEvent.setup() };
}

describe('RecordForm', () => {
  it('shows the structured MX fields and sends the stored record, with a preview of the full name', async () => {
    const { onSubmit, user } = setup();
    await user.selectOptions(screen.getByLabelText('Type'), 'MX');
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Shop');
    expect(screen.getByText(/Full name: shop\.example\.com/)).toBeTruthy();
    await user.type(screen.getByLabelText('Priority'), '10');
    await user.type(screen.getByLabelText('Mail server'), 'mx.example.net');
    expect(screen.getByRole('note').textContent).toContain('MX shop.example.com → 10 mx.example.net.');
    // The wallet's request is named by the service's own signing domain, in words, before it opens.
    expect(screen.getByRole('note').textContent).toContain('Signed for Namefi Local, version 1: the signature is good for this service only.');
    await user.click(screen.getByRole('button', { name: 'Add and sign' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'shop', type: 'MX', rdata: '10 mx.example.net.', ttl: 3600 }, 'sign'));
  });

  it('offers ALIAS next to CNAME, says when to use it, and sends the target with its trailing dot', async () => {
    const { onSubmit, user } = setup();
    const types = Array.from((screen.getByLabelText('Type') as HTMLSelectElement).options, (o) => o.value);
    expect(types.slice(0, 4)).toEqual(['A', 'AAAA', 'CNAME', 'ALIAS']);
    await user.selectOptions(screen.getByLabelText('Type'), 'CNAME');
    expect(screen.getByText('At the apex, use ALIAS')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Type'), 'ALIAS');
    expect(screen.getByText(/Use ALIAS where a CNAME cannot go: at the zone itself/)).toBeTruthy();
    await user.type(screen.getByLabelText('Target host name'), 'my-app.vercel.app');
    await user.click(screen.getByRole('button', { name: 'Add and sign' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: '@', type: 'ALIAS', rdata: 'my-app.vercel.app.', ttl: 3600 }, 'sign'));
  });

  it('offers every CAA tag of the registry and warns about a stored unknown tag', async () => {
    setup({ initial: { ...blankFormValues('CAA', '@'), flags: '0', tag: 'Policy42', value: 'x' } as never, mode: 'edit' });
    const tags = Array.from((screen.getByLabelText('Tag') as HTMLSelectElement).options, (o) => o.value);
    expect(tags).toEqual(['issue', 'issuewild', 'iodef', 'issuemail', 'issuevmc', 'contactemail', 'contactphone', 'Policy42']);
    expect(screen.getByRole('alert').textContent).toContain('"Policy42" is not a CAA tag of RFC 8659');
  });

  it('says what is wrong on each field, with an example, and sends nothing', async () => {
    const { onSubmit, user } = setup();
    await user.selectOptions(screen.getByLabelText('Type'), 'SRV');
    await user.type(screen.getByLabelText('Port'), '99999');
    await user.click(screen.getByRole('button', { name: 'Add and sign' }));
    expect(await screen.findByText('Port is a whole number from 0 to 65535, e.g. 5060')).toBeTruthy();
    expect(screen.getByText('Priority is required, e.g. 10')).toBeTruthy();
    expect(screen.getByLabelText('Port').getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('says an apex address belongs to forwarding while it is on, and only for an apex address', async () => {
    const { user } = setup({ forwardedApex: (r) => r.name === '@' && (r.type === 'A' || r.type === 'AAAA') });
    await user.type(screen.getByLabelText('IPv4 address'), '192.0.2.7');
    expect(await screen.findByText('example.com is forwarded')).toBeTruthy();
    expect(screen.getByText(/A and AAAA records at the apex belong to forwarding/)).toBeTruthy();
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'www');
    await waitFor(() => expect(screen.queryByText('example.com is forwarded')).toBeNull());
  });

  it('puts a zone-rule conflict on the field it names before anything is signed', async () => {
    const checkZone = vi.fn(() => ({ message: 'www already has an A record (192.0.2.1): a CNAME must be alone at its name', field: 'name' as const }));
    const { onSubmit, user } = setup({ checkZone, initial: { ...blankFormValues('CNAME', 'www'), value: 'host.example.net' } });
    await user.click(screen.getByRole('button', { name: 'Add and sign' }));
    expect(await screen.findByText(/a CNAME must be alone/)).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('lands the service’s field error on the field and a 403 explanation above the buttons', async () => {
    const onSubmit = vi
      .fn()
      .mockResolvedValueOnce({ fieldErrors: { rdata: 'The service says no' } })
      .mockResolvedValueOnce({ formError: { title: 'This wallet cannot change example.com', description: 'It belongs to 0x7099…79C8.' } });
    const { user } = setup({ onSubmit, initial: toFormValues({ name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 }), mode: 'edit' });
    await user.click(screen.getByRole('button', { name: 'Save and sign' }));
    expect(await screen.findByText('The service says no')).toBeTruthy();
    expect(screen.getByLabelText('IPv4 address').getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Save and sign' }));
    expect((await screen.findByRole('alert')).textContent).toContain('It belongs to 0x7099…79C8.');
  });

  it('offers TTL presets and a custom value in BIND units', async () => {
    const { onSubmit, user } = setup({ initial: { ...blankFormValues('A', 'www'), value: '192.0.2.1' } });
    await user.selectOptions(screen.getByLabelText('TTL'), 'custom');
    await user.clear(screen.getByLabelText('Custom TTL'));
    await user.type(screen.getByLabelText('Custom TTL'), '2h');
    expect(screen.getByText('7200 seconds = 2 h')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add to change set' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 7200 }, 'draft'));
  });

  it('shows a Unicode name in both forms before signing and sends its A-label', async () => {
    const { onSubmit, user } = setup({ initial: { ...blankFormValues('A', ''), value: '192.0.2.1' } });
    await user.type(screen.getByLabelText('Name'), 'münchen');
    expect(screen.getByText(/münchen → xn--mnchen-3ya\. Full name: xn--mnchen-3ya\.example\.com/)).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain('International names are signed in their DNS form: münchen → xn--mnchen-3ya');
    await user.click(screen.getByRole('button', { name: 'Add and sign' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'xn--mnchen-3ya', type: 'A', rdata: '192.0.2.1', ttl: 3600 }, 'sign'));
  });

  it('converts CNAME and MX targets typed in Unicode, and keeps _dmarc as typed', async () => {
    const { onSubmit, user } = setup({ initial: { ...blankFormValues('CNAME', 'ü'), value: 'bücher.shop' } });
    expect(screen.getByText('bücher.shop → xn--bcher-kva.shop (sent as the xn-- form)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add and sign' }));
    await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith({ name: 'xn--tda', type: 'CNAME', rdata: 'xn--bcher-kva.shop.', ttl: 3600 }, 'sign'));
    cleanup();

    const mx = setup({ initial: { ...blankFormValues('MX', '@'), priority: '10', host: 'post.bücher.de' } });
    await mx.user.click(screen.getByRole('button', { name: 'Add and sign' }));
    await waitFor(() => expect(mx.onSubmit).toHaveBeenCalledWith({ name: '@', type: 'MX', rdata: '10 post.xn--bcher-kva.de.', ttl: 3600 }, 'sign'));
    cleanup();

    const txt = setup({ initial: { ...blankFormValues('TXT', '_dmarc'), value: 'v=DMARC1; p=none' } });
    expect(screen.queryByText(/→ xn--/)).toBeNull();
    await txt.user.click(screen.getByRole('button', { name: 'Add and sign' }));
    await waitFor(() => expect(txt.onSubmit).toHaveBeenCalledWith({ name: '_dmarc', type: 'TXT', rdata: '"v=DMARC1; p=none"', ttl: 3600 }, 'sign'));
  });

  it('refuses a Unicode name that URL syntax would cut, instead of sending what is left', async () => {
    const { onSubmit, user } = setup({ initial: { ...blankFormValues('A', ''), value: '192.0.2.1' } });
    await user.type(screen.getByLabelText('Name'), 'ü@mail');
    await user.click(screen.getByRole('button', { name: 'Add and sign' }));
    expect(await screen.findByText(/“ü@mail” cannot be written as an international \(xn--\) name/)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
