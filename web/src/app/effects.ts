/** The guard's side effects, bound to the real session, storage and API. */
import type { QueryClient } from '@tanstack/react-query';
import { fetchAccountInfo } from '@/lib/api/accountInfo';
import { fetchScenePermissions } from '@/lib/api/scenePermissions';
import { login, logoutCall } from '@/lib/api/session';
import { cachedCustomPage } from '@/lib/api/customPage';
import { editionConfig } from '@/lib/config';
import { isMobileDevice, isWeChatBrowser } from '@/lib/device';
import { api, ApiError, NetworkError } from '@/lib/http';
import { adoptAccountLanguage, t } from '@/lib/i18n';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import { getToken, KEYS, read, write } from '@/lib/storage';
import { effectiveScene, type GuardEffects } from './guard';
import type { RouteDef } from './routes';

export class EmptyRolesError extends Error {
  constructor() {
    super('roles must be a non-null array');
  }
}

/** Where the three external routes lead. */
export function externalUrl(route: RouteDef): string | null {
  const links = editionConfig().externalLinks ?? {};
  if (links[route.name]) return links[route.name] ?? null;
  if (route.name === 'calibrationServe') return `${window.location.origin}/calibration`;
  return null;
}

export function openExternal(route: RouteDef): void {
  const url = externalUrl(route);
  if (url) window.open(url, '_blank', 'noopener');
  else notify.info(t('app:externalUnavailable'));
}

/** The text of a failed call: the server's message, else the client's own wording. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof NetworkError) {
    return t(error.reason === 'timeout' ? 'common:http.requestTimeout' : 'common:http.networkError');
  }
  return t('common:http.errorMessage');
}

/**
 * Ends the session: the server revokes the token, then token, roles and cached queries are
 * cleared whatever the server said (spec seed 000 section 4). Resolves with the failure's text
 * when the call failed (the user menu shows it), else null.
 */
export async function logout(queryClient?: QueryClient, call: () => Promise<void> = logoutCall): Promise<string | null> {
  let failure: string | null = null;
  try {
    await call();
  } catch (error) {
    failure = failureText(error);
  }
  session.clear();
  queryClient?.clear();
  return failure;
}

export async function loadSessionPermissions(): Promise<void> {
  let info = await fetchAccountInfo();
  // Opening a session (login, or the console opened again), the account's language wins; what
  // the server wrote in the browser's (scene names) is then asked again.
  if (!session.isLoaded() && (await adoptAccountLanguage(info.baseAccount.language))) info = await fetchAccountInfo();
  if (info.permissionRoutes.length === 0) throw new EmptyRolesError();
  const requested = session.storedScene();
  let scenePermissions = await fetchScenePermissions(requested);
  const scene = effectiveScene(requested, scenePermissions);
  if (scene !== requested) {
    session.storeScene(scene);
    scenePermissions = await fetchScenePermissions(scene);
  }
  session.loaded(info, scene, scenePermissions);
}

export function guardEffects(queryClient: QueryClient): GuardEffects {
  return {
    context: (pathname, search) => ({
      pathname,
      search,
      token: getToken(),
      loaded: session.isLoaded(),
      held: session.get().permissions,
      mobile: isMobileDevice(),
      wechat: isWeChatBrowser(),
      openId: read<string | null>(KEYS.openId, null),
      customData: cachedCustomPage(),
    }),
    adoptToken(token) {
      session.signedIn(token);
      api.sessionStarted();
    },
    async autoLogin(userName, password) {
      try {
        const issued = await login({ userName, accountPassword: password, loginType: 4 });
        session.signedIn(issued.token);
        api.sessionStarted();
        return true;
      } catch {
        return false;
      }
    },
    loadPermissions: loadSessionPermissions,
    async exchangeOpenId(code) {
      const openId = await api.get<string>('/payment/payment/getOpenId', { params: { code } });
      write(KEYS.openId, openId);
    },
    wechatAuthorize() {
      const appId = editionConfig().wechatAppId ?? '';
      const back = encodeURIComponent(window.location.href);
      window.location.assign(
        `https://open.weixin.qq.com/connect/oauth2/authorize?appid=${appId}&redirect_uri=${back}` +
          '&response_type=code&scope=snsapi_base&state=jc#wechat_redirect',
      );
    },
    openExternal,
    async loadFailed(error) {
      const text = error instanceof EmptyRolesError ? t('app:rolesEmpty') : t('app:loadFailed');
      notify.error(text, t('common:http.errorTitle'));
      await logout(queryClient);
    },
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
