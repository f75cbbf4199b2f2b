// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastProvider } from '@/ui/index.ts';
import { setApiKey, settingsStore } from '@/lib/settings/settings-store.ts';
import { CredentialsSection } from './CredentialsSection.tsx';

const STORED = 'namefi.dashboard.apiKey';
const KEY = `nfk_${'k'.repeat(43)}`;

beforeEach(() => {
  setApiKey(undefined, false);
  localStorage.clear();
});
afterEach(cleanup);

function setup() {
  render(
    <ToastProvider>
      <CredentialsSection />
    </ToastProvider>,
  );
  return userEvent.setup();
}

describe('remembering an API key', () => {
  it('says what remembering means: this browser’s localStorage, or memory for this tab only', () => {
    setup();
    const box = screen.getByRole('checkbox', { name: 'Remember on this device' });
    expect(box).toHaveProperty('checked', false);
    expect(box.getAttribute('aria-describedby')).toBeTruthy();
    const hint = document.getElementById(box.getAttribute('aria-describedby')!)!.textContent!;
    expect(hint).toMatch(/localStorage/);
    expect(hint).toMatch(/anyone using this browser profile/);
    expect(hint).toMatch(/only in memory for this tab/);
  });

  it('keeps a key in memory only unless the box is ticked', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('API key', { selector: 'input' }), KEY);
    await user.click(screen.getByRole('button', { name: 'Use this key' }));
    expect(screen.getByText('In use: nfk_kkkk…')).toBeTruthy();
    expect(settingsStore.getState().apiKey).toBe(KEY);
    expect(localStorage.getItem(STORED)).toBeNull();
  });

  it('stores a key when ticked, and unticking forgets it from storage at once while it stays in use', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('API key', { selector: 'input' }), KEY);
    await user.click(screen.getByRole('checkbox', { name: 'Remember on this device' }));
    await user.click(screen.getByRole('button', { name: 'Use this key' }));
    expect(JSON.parse(localStorage.getItem(STORED)!)).toBe(KEY);

    await user.click(screen.getByRole('checkbox', { name: 'Remember on this device' }));
    expect(localStorage.getItem(STORED)).toBeNull();
    expect(settingsStore.getState()).toMatchObject({ apiKey: KEY, rememberApiKey: false });
    expect(screen.getByText('In use: nfk_kkkk…')).toBeTruthy();

    // Ticking again stores the key in use; forgetting it clears both the storage and the box.
    await user.click(screen.getByRole('checkbox', { name: 'Remember on this device' }));
    expect(JSON.parse(localStorage.getItem(STORED)!)).toBe(KEY);
    await user.click(screen.getByRole('button', { name: 'Forget key' }));
    expect(localStorage.getItem(STORED)).toBeNull();
    expect(settingsStore.getState().apiKey).toBeUndefined();
    expect(screen.getByRole('checkbox', { name: 'Remember on this device' })).toHaveProperty('checked', false);
  });
});
