/**
 * Opens the expired-service dialog from anywhere (the expiry reminder, the home page tiles).
 * `SessionDialogs` draws the one dialog; this store says whether it is open and with which filter.
 */
import { useSyncExternalStore } from 'react';
import { DEFAULT_EXPIRED_FLAG, type ExpiredFlag } from './api/expired';

export interface ExpiredDialogState {
  isOpen: boolean;
  /** The filter the dialog opens with. */
  flag: ExpiredFlag;
  /** Changes on every opening, so the dialog starts afresh each time. */
  openedAt: number;
}

let state: ExpiredDialogState = { isOpen: false, flag: DEFAULT_EXPIRED_FLAG, openedAt: 0 };
const listeners = new Set<() => void>();

function emit(next: ExpiredDialogState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

/** Opens the expired-service dialog, filtered by `flag` (default: expiring within 30 days). */
export function openExpiredDialog(flag: ExpiredFlag = DEFAULT_EXPIRED_FLAG): void {
  emit({ isOpen: true, flag, openedAt: state.openedAt + 1 });
}

export function closeExpiredDialog(): void {
  if (state.isOpen) emit({ ...state, isOpen: false });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useExpiredDialogState(): ExpiredDialogState {
  return useSyncExternalStore(subscribe, () => state, () => state);
}
