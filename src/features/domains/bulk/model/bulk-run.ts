import { browserStorage } from '@/lib/browser-storage.ts';
import type { Assessed, StepCall } from './actions.ts';

export type StepStatus = 'planned' | 'sending' | 'done' | 'failed';

export interface BulkStep extends Assessed {
  domain: string;
  call: StepCall;
  status: StepStatus;
  /** Why it failed, in words. */
  error?: string;
  /** Milliseconds from asking the wallet to the service's answer. */
  ms?: number;
}

/** A bulk change, kept in localStorage per account so that a reload mid-way knows what landed and what remains. */
export interface BulkRun {
  account: string;
  title: string;
  steps: BulkStep[];
}

const keyOf = (account: string) => `namefi:bulk-run:${account.toLowerCase()}`;

export function loadRun(account: string | undefined): BulkRun | null {
  if (!account) return null;
  try {
    const text = browserStorage()?.getItem(keyOf(account));
    return text ? (JSON.parse(text) as BulkRun) : null;
  } catch {
    return null;
  }
}

export function saveRun(run: BulkRun): void {
  browserStorage()?.setItem(keyOf(run.account), JSON.stringify(run));
}

export function clearRun(account: string): void {
  browserStorage()?.removeItem(keyOf(account));
}

export function progressOf(run: BulkRun) {
  const count = (s: StepStatus) => run.steps.filter((step) => step.status === s).length;
  const done = count('done');
  const failed = count('failed');
  return { total: run.steps.length, done, failed, remaining: run.steps.length - done - failed, finished: done + failed };
}

/** Steps a run still has to send: planned, and after a reload those whose answer never came (re-checked first). */
export const isOpen = (step: BulkStep) => step.status === 'planned' || step.status === 'sending';
