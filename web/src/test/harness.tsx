/** Test helpers of the session dialogs and the home page: an account, a fake server, providers. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi, type MockInstance } from 'vitest';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { initI18n } from '@/lib/i18n/index';
import { session } from '@/lib/session';
import { setToken } from '@/lib/storage';
import { SlotsProvider } from '@/app/slots';

export async function setUpI18n(): Promise<void> {
  await initI18n('en-US', 'en-US');
}

type Profile = AccountInfo['userProfile'];

/** An account like the demo's alice: identity and industry set, standard membership. */
export function accountInfo(profile: Partial<Profile> = {}, extra: Partial<AccountInfo> = {}): AccountInfo {
  return {
    permissionRoutes: ['home', 'device.list', 'device.list:add'],
    orgWithMyRole: [],
    baseAccount: { id: 7, userName: 'alice', accountPhoto: null, phone: null, email: 'alice@example.com', accountType: 1, realName: null, company: null, language: null, timeZone: null },
    userProfile: {
      walletStatus: 0,
      homePage: null,
      elitechIdentity: '3',
      elitechIndustry: '5',
      enableProtect: 0,
      enableFda: 0,
      ...profile,
    },
    premiumState: { state: 0, expiredCount: 0 },
    baseSceneList: [{ sceneType: 1, sceneName: 'Main' }],
    elitechVersion: '1.0.0',
    ...extra,
  };
}

/** Signs `info` in, as the guard would after loading it. */
export function signIn(info: AccountInfo = accountInfo(), scenePermissions: string[] = ['home', 'device.list']): void {
  setToken(`token-${info.baseAccount.id}`);
  session.loaded(info, 1, scenePermissions);
}

export function envelope(data: unknown, code = 0, status = 200, msg = 'ok', errors?: Record<string, string[]>): Response {
  return new Response(JSON.stringify({ code, msg, data, ...(errors ? { errors } : {}) }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export interface Call {
  method: string;
  path: string;
  params: URLSearchParams;
  body: unknown;
}

/** Answers by `METHOD /path` (without /api); anything else is a 404 envelope. */
export type Routes = Record<string, (call: Call) => Response | Promise<Response>>;

export interface FakeServer {
  calls: Call[];
  spy: MockInstance<typeof fetch>;
  /** The calls made to `METHOD /path`. */
  callsTo(route: string): Call[];
}

export function fakeServer(routes: Routes): FakeServer {
  const calls: Call[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api/, '');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call = { method, path, params: url.searchParams, body };
    calls.push(call);
    const handler = routes[`${method} ${path}`];
    return handler ? handler(call) : envelope(null, 404, 404, 'not found');
  });
  return { calls, spy, callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route) };
}

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export interface Rendered extends RenderResult {
  queryClient: QueryClient;
}

/** Renders `ui` at `path` inside a query client and a router that shows where it is. */
export function renderApp(ui: ReactElement, path = '/home'): Rendered {
  return renderRoute(ui, '*', path);
}

/** Renders `ui` under the route `pattern` (e.g. `/device/detail/:deviceId`), opened at `path`. */
export function renderRoute(ui: ReactElement, pattern: string, path: string): Rendered {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const element = (
    <>
      {ui}
      <Location />
    </>
  );
  const routes = pattern === '*' ? [{ path: '*', element }] : [{ path: pattern, element }, { path: '*', element }];
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const rendered = render(
    <QueryClientProvider client={queryClient}>
      <SlotsProvider>
        <RouterProvider router={router} />
      </SlotsProvider>
    </QueryClientProvider>,
  );
  return { ...rendered, queryClient };
}
