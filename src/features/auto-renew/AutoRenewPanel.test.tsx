// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AutoRenew } from '#core/operations/domain-config.ts';
import { ApiError } from '@/lib/api-error.ts';
import { SignatureRejectedError } from '@/lib/signing/errors.ts';
import { json, renderWithQueries, typesForMethodAnswer } from '../../../test/dashboard/service-edge.tsx';
import AutoRenewPanel from './AutoRenewPanel.tsx';

// The wallet is not what this test is about: the signed call is a stand-in each test answers (e2e signs for real),
// followed by the dashboard's own refresh rule, as useSignedCall does.
const signAndCall = vi.hoisted(() => vi.fn());
vi.mock('@/lib/signing/use-signed-call.ts', async () => {
  const { useQueryClient } = await import('@tanstack/react-query');
  const { refreshAfterWrite } = await import('@/lib/freshness/refresh.ts');
  return {
    useSignedCall: () => {
      const queryClient = useQueryClient();
      return {
        signAndCall: async (id: 'setAutoRenew', payload: unknown) => {
          const result: unknown = await signAndCall(id, payload);
          await refreshAfterWrite(queryClient, id, payload);
          return result;
        },
      };
    },
  };
});

// jsdom has <dialog> but not its modal methods: open it as a browser would.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

const NEVER_SWITCHED: AutoRenew = { normalizedDomainName: 'keep.com', enabled: false, durationInYears: 1, nextAttemptAt: null, lastAttempt: null };

/** The service at the network edge: production (no auto-renew of ours) or this project's, answering `setting`. */
let stored: AutoRenew = NEVER_SWITCHED;
function serve(kind: 'production' | 'ours', setting: AutoRenew = NEVER_SWITCHED) {
  stored = setting;
  const fetchMock = vi.fn(async (url: string) => {
    const { pathname } = new URL(url);
    if (pathname.endsWith('/eip712/types-for-method')) return json(typesForMethodAnswer('setAutoRenew', kind !== 'production'));
    if (pathname.endsWith('/eip712/domain')) return json({ name: 'Namefi Local', version: '1' });
    if (pathname.endsWith('/domain-config/auto-renew')) return json(stored);
    throw new Error(`unexpected request ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  signAndCall.mockReset();
});

/** Switches auto-renew on for 3 years and asks to save: the dialog that says what will be signed. */
async function chooseOnForThreeYears() {
  const user = userEvent.setup();
  renderWithQueries(<AutoRenewPanel domain="keep.com" />);
  expect(await screen.findByText('Off: the domain expires unless someone renews it.')).toBeTruthy();
  await user.click(screen.getByRole('switch', { name: 'Renew automatically' }));
  await user.selectOptions(screen.getByLabelText('Years each renewal adds'), '3');
  await user.click(screen.getByRole('button', { name: 'Save auto-renew' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Renew keep.com automatically?' }) };
}

const formKeepsTheChoice = () => {
  expect(screen.getByRole('switch', { name: 'Renew automatically' }).getAttribute('aria-checked')).toBe('true');
  expect((screen.getByLabelText('Years each renewal adds') as HTMLSelectElement).value).toBe('3');
};

describe('AutoRenewPanel', () => {
  it('says when the last renewal was short of credit, why, and when it tries again', async () => {
    serve('ours', {
      normalizedDomainName: 'keep.com',
      enabled: true,
      durationInYears: 1,
      nextAttemptAt: '2027-10-28T09:00:00.000Z',
      lastAttempt: { at: '2027-10-27T09:00:00.000Z', outcome: 'short-of-credit', orderId: null, reason: 'This order costs 12.50 USD; the balance is 2.50 USD: 10.00 USD missing' },
    });
    renderWithQueries(<AutoRenewPanel domain="keep.com" />);
    expect(await screen.findByText('Short of credit: not renewed yet')).toBeTruthy();
    expect(
      screen.getByText(
        "The renewal tried on 2027-10-27 could not be paid: This order costs 12.50 USD; the balance is 2.50 USD: 10.00 USD missing. Top up the owner's balance; it tries again on 2027-10-28.",
      ),
    ).toBeTruthy();
  });

  it('against production says auto-renew needs this project\u2019s service, without an error or an auto-renew request', async () => {
    const fetchMock = serve('production');
    renderWithQueries(<AutoRenewPanel domain="keep.com" />);
    expect(await screen.findByText(/Auto-renew needs this project's own service/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/domain-config/auto-renew'))).toBe(false);
  });

  it('says in words what will be signed before the wallet opens, then signs exactly that and shows the new state', async () => {
    serve('ours');
    const { user, dialog } = await chooseOnForThreeYears();
    expect(within(dialog).getByText(/the service renews it for 3 years from your credit/)).toBeTruthy();
    expect(within(dialog).getByRole('note').textContent).toContain('Renew keep.com automatically, 3 years at a time, from your credit (SetAutoRenew)');
    expect(signAndCall).not.toHaveBeenCalled();

    const saved: AutoRenew = { ...NEVER_SWITCHED, enabled: true, durationInYears: 3, nextAttemptAt: '2027-05-01T00:00:00.000Z' };
    // The service stores it; the panel shows what it reads back.
    signAndCall.mockImplementation(async () => {
      stored = saved;
      return saved;
    });
    await user.click(within(dialog).getByRole('button', { name: 'Sign and save' }));
    expect(signAndCall).toHaveBeenCalledWith('setAutoRenew', { normalizedDomainName: 'keep.com', enabled: true, durationInYears: 3 });
    expect(await screen.findByText("On: renews for 3 years at a time from the owner's credit; the next attempt is due on 2027-05-01.")).toBeTruthy();
    formKeepsTheChoice();
  });

  it('a declined signature keeps the form as the person left it and says nothing changed', async () => {
    serve('ours');
    const { user, dialog } = await chooseOnForThreeYears();
    signAndCall.mockRejectedValue(new SignatureRejectedError());
    await user.click(within(dialog).getByRole('button', { name: 'Sign and save' }));
    expect(await screen.findByText('You declined the signature; auto-renew is unchanged.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Off: the domain expires unless someone renews it.')).toBeTruthy();
    formKeepsTheChoice();
  });

  it('a refusal by the service is explained and the form keeps its values', async () => {
    serve('ours');
    const { user, dialog } = await chooseOnForThreeYears();
    signAndCall.mockRejectedValue(new ApiError({ status: 403, code: 'FORBIDDEN', message: 'The wallet does not own keep.com', data: { owner: '0x1111111111111111111111111111111111111111' } }));
    await user.click(within(dialog).getByRole('button', { name: 'Sign and save' }));
    expect(await screen.findByText('This wallet cannot change keep.com')).toBeTruthy();
    expect(screen.getByText(/It belongs to 0x11…1111/)).toBeTruthy();
    formKeepsTheChoice();
  });
});
