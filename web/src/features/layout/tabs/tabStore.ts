/**
 * The open tabs of this browser tab. Kept in sessionStorage so a reload (a scene switch, say)
 * keeps them, while another browser tab starts its own; cleared when the session ends, and
 * never shown to another account.
 */
import { useSyncExternalStore } from 'react';
import type { Tab, TabsState } from './tabRules';

const STORAGE_KEY = 'jc__tabs';
const OWNER_KEY = 'jc__tabsOwner';
const EMPTY: TabsState = { tabs: [], active: null };

function isTab(value: unknown): value is Tab {
  if (typeof value !== 'object' || value === null) return false;
  const { name, path } = value as Record<string, unknown>;
  return typeof name === 'string' && typeof path === 'string' && path.startsWith('/');
}

function load(): TabsState {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return EMPTY;
    const { tabs, active } = raw as Record<string, unknown>;
    if (!Array.isArray(tabs) || !tabs.every(isTab)) return EMPTY;
    return { tabs, active: typeof active === 'string' ? active : null };
  } catch {
    return EMPTY;
  }
}

let state: TabsState = load();
const listeners = new Set<() => void>();

export const tabStore = {
  get: (): TabsState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set(next: TabsState): void {
    if (next.active === state.active && next.tabs === state.tabs) return;
    state = { tabs: next.tabs, active: next.active };
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
    } catch {
      // storage full or disabled: the tabs live in memory only
    }
    listeners.forEach((listener) => listener());
  },
  /** Forgets every tab (sign-out). */
  clear(): void {
    sessionStorage.removeItem(STORAGE_KEY);
    sessionStorage.removeItem(OWNER_KEY);
    state = EMPTY;
    listeners.forEach((listener) => listener());
  },
  /** The tabs belong to this account from now on; another account's tabs are forgotten first. */
  claim(accountId: number): void {
    const owner = String(accountId);
    if (sessionStorage.getItem(OWNER_KEY) === owner) return;
    tabStore.clear();
    sessionStorage.setItem(OWNER_KEY, owner);
  },
};

export function useTabs(): TabsState {
  return useSyncExternalStore(tabStore.subscribe, tabStore.get, tabStore.get);
}
