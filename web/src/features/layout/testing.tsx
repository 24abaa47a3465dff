/** Test helpers of the layout: an account, a fake server behind `fetch`, and the layout in a router. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { initI18n } from '@/lib/i18n';
import { session, type SceneId } from '@/lib/session';
import { setToken } from '@/lib/storage';
import { MainLayout, type MainLayoutProps } from './MainLayout';
import { SlotsProvider } from '@/app/slots';
import { ROUTES } from '@/app/routes';

/**
 * Fills a stand-in for PAGES (`vi.mock('@/app/pages', ...)`) with a page for every route, so a
 * layout test checks the layout, not which pages are built yet; a test deletes one to take it away.
 */
export function givePagesToEveryRoute(pages: Record<string, unknown>): void {
  for (const key of Object.keys(pages)) delete pages[key];
  for (const route of ROUTES) pages[route.name] = () => Promise.resolve({ default: () => null });
}

export async function setUpI18n(): Promise<void> {
  await initI18n('en-US', 'en-US');
}

export function accountInfo(change: Partial<AccountInfo> = {}): AccountInfo {
  return {
    permissionRoutes: ['home', 'device.list', 'consumer.info', 'consumer.download', 'consumer.wallet', 'operation.plc.list'],
    orgWithMyRole: [],
    baseAccount: { id: 4, userName: 'acme', accountPhoto: null, phone: '13800000002', email: '', accountType: 2, realName: null, company: null, language: null, timeZone: null },
    userProfile: { walletStatus: 1, homePage: null, elitechIdentity: '3', elitechIndustry: '5', enableProtect: 0, enableFda: 0 },
    premiumState: { state: 1, expiredCount: 200 },
    baseSceneList: [
      { sceneType: 1, sceneName: 'Cold-chain monitoring' },
      { sceneType: 2, sceneName: 'Cloud chain' },
    ],
    elitechVersion: '1.2.3',
    ...change,
  };
}

export function envelope(data: unknown, status = 200, code = 0, msg = 'ok'): Response {
  return new Response(JSON.stringify({ code, msg, data }), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A request the fake server received. */
export interface Call {
  /** HTTP method. */
  method: string;
  /** Path without the /api prefix. */
  path: string;
  /** Query parameters. */
  query: URLSearchParams;
  /** The parsed JSON body, if any. */
  body: unknown;
}

/** The header's badge asks this by itself; it is answered (none ready) and not recorded. */
const BADGE = 'GET /device/DeviceDataExport/readyCount';

/**
 * Answers `fetch` from handlers keyed `METHOD /path` (without /api); records every call but the
 * badge's, unless a handler for it is given.
 */
export function fakeServer(handlers: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    const key = `${call.method} ${call.path}`;
    if (key === BADGE && !handlers[key]) return envelope({ count: 0 });
    calls.push(call);
    const handler = handlers[key];
    return handler ? handler(call) : envelope(null, 404, 404, 'not found');
  });
  return { calls };
}

/** How `renderLayout` signs in and where it starts. */
export interface LayoutSetup {
  /** The account (acme-like unless told). */
  info?: AccountInfo;
  /** The current scene. */
  sceneId?: SceneId;
  /** The scene's permissions (the account's permissions unless told). */
  scenePermissions?: string[];
  /** Where the router starts. */
  path?: string;
  /** The layout's variant. */
  variant?: MainLayoutProps['variant'];
  /** The window's width: desktop unless told. */
  width?: number;
}

export function setWindowWidth(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

/** Signs in and draws the main layout on a path; pages are placeholders naming their path. */
export function renderLayout(setup: LayoutSetup = {}) {
  const { info = accountInfo(), sceneId = 1, scenePermissions, path = '/home', variant, width = 1440 } = setup;
  setWindowWidth(width);
  setToken('token-1');
  session.loaded(info, sceneId, scenePermissions ?? info.permissionRoutes);
  const router = createMemoryRouter(
    [
      { path: '/user/login', element: <div data-testid="login-page" /> },
      { path: '/', element: <MainLayout variant={variant} />, children: [{ path: '*', element: <div data-testid="page" /> }] },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SlotsProvider>
        <RouterProvider router={router} />
      </SlotsProvider>
    </QueryClientProvider>,
  );
  return { router, queryClient, ...view };
}
