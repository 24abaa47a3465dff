/**
 * The routing guard (spec seed 000 section 2, "Guard rules"), as a pure decision per navigation;
 * `runGuard` carries out what each decision asks (storing a token, logging in from the URL,
 * loading permissions, the WeChat OpenID step) and settles on a page or a redirect.
 */
import { matchRoutes } from 'react-router';
import { safeRedirect } from '@/lib/redirect';
import { landingPath, LOGIN_PATHS, ROUTES, type RouteDef } from './routes';

export const SCENE_TWO_PERMISSION = 'cloudChain.myProject';
export const URL_LOGIN_FAILURE_MS = 4_000;

export interface GuardContext {
  pathname: string;
  search: string;
  token: string | null;
  /** Account information and scene permissions are loaded. */
  loaded: boolean;
  /** Every permission the account holds (once loaded). */
  held: ReadonlySet<string>;
  mobile: boolean;
  wechat: boolean;
  openId: string | null;
  customData: { enableRegister?: number | null; styleModel?: string | null } | null;
}

export type Decision =
  | { kind: 'allow'; route: RouteDef }
  | { kind: 'redirect'; to: string }
  | { kind: 'external'; route: RouteDef }
  | { kind: 'adoptToken'; token: string; to: string }
  | { kind: 'autoLogin'; userName: string; password: string; to: string }
  | { kind: 'wechatAuthorize' }
  | { kind: 'exchangeOpenId'; code: string; to: string }
  | { kind: 'loadPermissions' }
  | { kind: 'forbidden'; route: RouteDef };

const matchable = ROUTES.map((route) => ({ path: route.path, route }));

export function findRoute(pathname: string): RouteDef | null {
  const matches = matchRoutes(matchable, pathname);
  return matches?.[0]?.route.route ?? null;
}

/** The login page of the area a path belongs to. */
export function loginPathFor(pathname: string): string {
  if (pathname.startsWith('/mobile/calibration')) return LOGIN_PATHS.mobileCalibration;
  if (pathname.startsWith('/calibration/admin') || /^\/admin\/order(\/|$)/.test(pathname)) {
    return LOGIN_PATHS.calibrationAdmin;
  }
  if (pathname.startsWith('/calibration') || /^\/[^/]+\/order(\/|$)/.test(pathname)) return LOGIN_PATHS.calibration;
  return LOGIN_PATHS.user;
}

export function loginRedirect(pathname: string, search: string): string {
  return `${loginPathFor(pathname)}?redirect=${encodeURIComponent(pathname + search)}`;
}

function without(pathname: string, search: string, names: string[]): string {
  const params = new URLSearchParams(search);
  names.forEach((name) => params.delete(name));
  const rest = params.toString();
  return rest ? `${pathname}?${rest}` : pathname;
}

export function decide(ctx: GuardContext): Decision {
  const { pathname, search } = ctx;
  if (pathname === '/') return { kind: 'redirect', to: landingPath(ctx.customData?.styleModel) };
  const route = findRoute(pathname);
  if (!route) return { kind: 'redirect', to: '/' };
  if (route.external) return { kind: 'external', route };

  const params = new URLSearchParams(search);
  const token = params.get('token');
  if (token && !params.has('orderId')) {
    return { kind: 'adoptToken', token, to: without(pathname, search, ['token']) };
  }
  const userName = params.get('userName');
  const password = params.get('password');
  if (userName && password) {
    return { kind: 'autoLogin', userName, password, to: without(pathname, search, ['userName', 'password']) };
  }

  if (route.name === 'pcQuickWaybill' && ctx.mobile) return { kind: 'redirect', to: `/mobileQuick/waybill${search}` };
  if (route.name === 'mobileQuickWaybill' && !ctx.mobile) return { kind: 'redirect', to: `/pcQuick/waybill${search}` };

  if (pathname.startsWith('/mobile/calibration') && ctx.wechat && !ctx.openId) {
    const code = params.get('code');
    return code
      ? { kind: 'exchangeOpenId', code, to: without(pathname, search, ['code', 'state']) }
      : { kind: 'wechatAuthorize' };
  }

  // As the spec states it: the register page sends the user to login when the custom data says
  // registration is enabled.
  if (route.name === 'register' && ctx.customData?.enableRegister) return { kind: 'redirect', to: LOGIN_PATHS.user };

  if (ctx.token) {
    if (route.name === 'login') return { kind: 'redirect', to: safeRedirect(params.get('redirect')) };
    if (route.public) return { kind: 'allow', route };
    if (!ctx.loaded) return { kind: 'loadPermissions' };
    if (route.permissions && !route.permissions.some((p) => ctx.held.has(p))) return { kind: 'forbidden', route };
    return { kind: 'allow', route };
  }
  if (route.public) return { kind: 'allow', route };
  return { kind: 'redirect', to: loginRedirect(pathname, search) };
}

/** The scene the console opens: scene 2 needs cloudChain.myProject, else it falls back to 1. */
export function effectiveScene(requested: number, scenePermissions: readonly string[]): 1 | 2 {
  return requested === 2 && scenePermissions.includes(SCENE_TWO_PERMISSION) ? 2 : 1;
}

export interface GuardEffects {
  context(pathname: string, search: string): GuardContext;
  adoptToken(token: string): void;
  /** Logs in with loginType 4; resolves false when refused (the client has shown why). */
  autoLogin(userName: string, password: string): Promise<boolean>;
  /** Account info, then the stored scene's permissions with the scene-2 fallback. */
  loadPermissions(): Promise<void>;
  exchangeOpenId(code: string): Promise<void>;
  wechatAuthorize(): void;
  openExternal(route: RouteDef): void;
  /** After a failed load: error notice with the logout text, then logout. */
  loadFailed(error: unknown): Promise<void>;
  wait(ms: number): Promise<void>;
}

export type Outcome =
  | { kind: 'page'; route: RouteDef }
  | { kind: 'forbidden'; route: RouteDef }
  | { kind: 'redirect'; to: string }
  | { kind: 'stay' }
  | { kind: 'leaving' };

export async function runGuard(pathname: string, search: string, effects: GuardEffects): Promise<Outcome> {
  for (let step = 0; step < 5; step += 1) {
    const decision = decide(effects.context(pathname, search));
    switch (decision.kind) {
      case 'allow':
        return { kind: 'page', route: decision.route };
      case 'forbidden':
        return { kind: 'forbidden', route: decision.route };
      case 'redirect':
        return { kind: 'redirect', to: decision.to };
      case 'external':
        effects.openExternal(decision.route);
        return { kind: 'stay' };
      case 'adoptToken':
        effects.adoptToken(decision.token);
        return { kind: 'redirect', to: decision.to };
      case 'autoLogin':
        if (await effects.autoLogin(decision.userName, decision.password)) return { kind: 'redirect', to: decision.to };
        await effects.wait(URL_LOGIN_FAILURE_MS);
        return { kind: 'redirect', to: LOGIN_PATHS.user };
      case 'exchangeOpenId':
        await effects.exchangeOpenId(decision.code);
        return { kind: 'redirect', to: decision.to };
      case 'wechatAuthorize':
        effects.wechatAuthorize();
        return { kind: 'leaving' };
      case 'loadPermissions':
        try {
          await effects.loadPermissions();
        } catch (error) {
          await effects.loadFailed(error);
          return { kind: 'redirect', to: loginRedirect(pathname, search) };
        }
        break; // decide again, now loaded
    }
  }
  return { kind: 'redirect', to: '/' };
}
