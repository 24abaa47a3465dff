/**
 * Client settings kept in localStorage under the `jc__` prefix (spec seed 000 section 3).
 * Values are JSON with an optional expiry; an expired value reads as absent and is removed.
 */

export const PREFIX = 'jc__';
export const TOKEN_LIFETIME_MS = 604_800_000; // 7 days, spec seed 000 section 4

/** Every stored client setting, by the name the spec gives it. */
export const KEYS = {
  sidebar: 'sidebarStatus',
  theme: 'theme',
  fixedHeader: 'fixedHeader',
  fixedSidebar: 'fixedSidebar',
  autoHideHeader: 'autoHideHeader',
  colorWeak: 'colorWeak',
  multiTab: 'multiTab',
  language: 'language',
  sceneId: 'sceneId',
  token: 'token',
  customData: 'customData',
  noticeNoRemind: 'noticeNoRemind',
  openId: 'openId',
} as const;

export type StorageKey = (typeof KEYS)[keyof typeof KEYS];

interface Entry<T> {
  value: T;
  expires?: number;
}

function fullKey(key: StorageKey): string {
  return PREFIX + key;
}

export function read<T>(key: StorageKey, fallback: T, now: number = Date.now()): T {
  const raw = localStorage.getItem(fullKey(key));
  if (raw === null) return fallback;
  try {
    const entry = JSON.parse(raw) as Entry<T>;
    if (entry.expires !== undefined && entry.expires <= now) {
      localStorage.removeItem(fullKey(key));
      return fallback;
    }
    return entry.value;
  } catch {
    localStorage.removeItem(fullKey(key));
    return fallback;
  }
}

export function write<T>(key: StorageKey, value: T, ttlMs?: number, now: number = Date.now()): void {
  const entry: Entry<T> = ttlMs === undefined ? { value } : { value, expires: now + ttlMs };
  localStorage.setItem(fullKey(key), JSON.stringify(entry));
}

export function remove(key: StorageKey): void {
  localStorage.removeItem(fullKey(key));
}

export function getToken(now: number = Date.now()): string | null {
  return read<string | null>(KEYS.token, null, now);
}

export function setToken(token: string, now: number = Date.now()): void {
  write(KEYS.token, token, TOKEN_LIFETIME_MS, now);
}

export function clearToken(): void {
  remove(KEYS.token);
}

/** A notice the user asked not to see again, per account and notice. */
export interface NoRemind {
  accountId: number;
  noticeId: number;
}

export function isNoticeSilenced(accountId: number, noticeId: number): boolean {
  return read<NoRemind[]>(KEYS.noticeNoRemind, []).some(
    (item) => item.accountId === accountId && item.noticeId === noticeId,
  );
}

export function silenceNotice(accountId: number, noticeId: number): void {
  const list = read<NoRemind[]>(KEYS.noticeNoRemind, []);
  if (!list.some((item) => item.accountId === accountId && item.noticeId === noticeId)) {
    write(KEYS.noticeNoRemind, [...list, { accountId, noticeId }]);
  }
}

/**
 * A login or logout in another tab changes the token; this tab then reloads so it never acts
 * with a session that is no longer its own. Returns the unsubscribe function.
 */
export function onTokenChangeInOtherTab(reload: () => void = () => window.location.reload()): () => void {
  const listener = (event: StorageEvent) => {
    if (event.key === fullKey(KEYS.token) && event.oldValue !== event.newValue) reload();
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
