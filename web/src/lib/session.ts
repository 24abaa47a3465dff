/**
 * The signed-in session: the token lives in storage; the account information and the
 * permissions of the current scene live here once the guard has loaded them.
 */
import { useSyncExternalStore } from 'react';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { clearToken, KEYS, read, setToken, write } from './storage';

export type SceneId = 1 | 2;

export interface SessionState {
  info: AccountInfo | null;
  sceneId: SceneId;
  /** Permissions of the current scene: what the menu is built from. */
  scenePermissions: string[];
  /** Every permission the account holds: what opens a route. */
  permissions: ReadonlySet<string>;
}

const EMPTY: SessionState = { info: null, sceneId: 1, scenePermissions: [], permissions: new Set() };
let state: SessionState = EMPTY;
const listeners = new Set<() => void>();

function emit(next: SessionState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

export const session = {
  get: (): SessionState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  isLoaded: (): boolean => state.info !== null,
  storedScene(): SceneId {
    return read<number>(KEYS.sceneId, 1) === 2 ? 2 : 1;
  },
  storeScene(sceneId: SceneId): void {
    write(KEYS.sceneId, sceneId);
  },
  loaded(info: AccountInfo, sceneId: SceneId, scenePermissions: string[]): void {
    emit({ info, sceneId, scenePermissions, permissions: new Set([...info.permissionRoutes, ...scenePermissions]) });
  },
  signedIn(token: string): void {
    setToken(token);
    emit(EMPTY);
  },
  /** Clears token and roles (spec: even when the logout call fails). */
  clear(): void {
    clearToken();
    emit(EMPTY);
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}
