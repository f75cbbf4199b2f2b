import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { readStored, writeStored, STORAGE_KEYS } from './storage.ts';

export type DelegatedKind = 'eip7702' | 'erc1271';
export interface DelegatedAccount {
  address: `0x${string}`;
  kind: DelegatedKind;
}

export interface Settings {
  /** Used instead of signatures and the SIWE token when set. */
  apiKey?: string;
  /** Whether the API key is kept in this browser's storage; otherwise it lives in memory only. */
  rememberApiKey: boolean;
  delegated?: DelegatedAccount;
}

function initialSettings(): Settings {
  const apiKey = readStored<string>(STORAGE_KEYS.apiKey);
  return { apiKey, rememberApiKey: apiKey !== undefined, delegated: readStored<DelegatedAccount>(STORAGE_KEYS.delegated) };
}

export const settingsStore = createStore<Settings>()(() => initialSettings());

export function setApiKey(apiKey: string | undefined, remember: boolean): void {
  const value = apiKey?.trim() || undefined;
  writeStored(STORAGE_KEYS.apiKey, remember ? value : undefined);
  settingsStore.setState({ apiKey: value, rememberApiKey: remember && value !== undefined });
}

export function setDelegatedAccount(delegated: DelegatedAccount | undefined): void {
  writeStored(STORAGE_KEYS.delegated, delegated);
  settingsStore.setState({ delegated });
}

/** Stores the service URL and reloads: every cached answer, session and signing domain belongs to one service. */
export function setServiceUrl(url: string | undefined): void {
  writeStored(STORAGE_KEYS.serviceUrl, url);
  writeStored(STORAGE_KEYS.session, undefined);
}

export function useSettings(): Settings {
  return useStore(settingsStore);
}
