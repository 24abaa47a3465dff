/**
 * The order of what a session shows after login (one modal at a time): the identity dialog while
 * identity or industry is missing, then the notice (when there is one the user has not silenced),
 * then the expiry reminder. Progress is remembered per sign-in, so moving between pages or layouts
 * does not show anything twice.
 */
import { useSyncExternalStore } from 'react';

export type Step = 'identity' | 'waiting' | 'notice' | 'reminder' | 'done';

/** Where the notice stands: still loading, nothing to show (none, silenced, failed), or to show. */
export type NoticeState = 'loading' | 'none' | 'show';

export interface StepInput {
  identityMissing: boolean;
  notice: NoticeState;
  noticeDone: boolean;
  reminderDone: boolean;
}

export function nextStep({ identityMissing, notice, noticeDone, reminderDone }: StepInput): Step {
  if (identityMissing) return 'identity';
  if (!noticeDone) {
    if (notice === 'loading') return 'waiting';
    if (notice === 'show') return 'notice';
  }
  return reminderDone ? 'done' : 'reminder';
}

export interface Progress {
  noticeDone: boolean;
  reminderDone: boolean;
}

const NONE: Progress = { noticeDone: false, reminderDone: false };
let progress = new Map<string, Progress>();
const listeners = new Set<() => void>();

function update(key: string, change: Partial<Progress>): void {
  const next = new Map(progress);
  next.set(key, { ...(progress.get(key) ?? NONE), ...change });
  progress = next;
  listeners.forEach((listener) => listener());
}

/** What one sign-in (`key`: account and token) has already been shown. */
export const sessionProgress = {
  get: (key: string): Progress => progress.get(key) ?? NONE,
  noticeDone: (key: string) => update(key, { noticeDone: true }),
  /** Marks the reminder as given; false when it already was (so it is shown once). */
  claimReminder(key: string): boolean {
    if (sessionProgress.get(key).reminderDone) return false;
    update(key, { reminderDone: true });
    return true;
  },
  reset(): void {
    progress = new Map();
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSessionProgress(key: string): Progress {
  return useSyncExternalStore(
    sessionProgress.subscribe,
    () => sessionProgress.get(key),
    () => sessionProgress.get(key),
  );
}
