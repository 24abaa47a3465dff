/** What the auth tests share: i18n in English, a memory router with the auth pages, fetch mocks. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi, type MockInstance } from 'vitest';
import { initI18n } from '@/lib/i18n';

export async function setUpI18n(): Promise<void> {
  await initI18n('en-US', 'en-US');
}

/** One request the page made. */
export interface Call {
  url: string;
  method: string;
  body: unknown;
}

export type Reply = (call: Call) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const ok = (data: unknown): Response => json({ code: 0, msg: 'ok', data });
export const refused = (status: number, code: number, msg: string, errors?: Record<string, string[]>, data: unknown = null): Response =>
  json({ code, msg, data, ...(errors ? { errors } : {}) }, status);

export function captchaImage(id: string): Response {
  // bytes, not a jsdom Blob: Node's Response cannot read jsdom's Blob
  return new Response(new Uint8Array([137, 80, 78, 71]), {
    status: 200,
    headers: { 'Content-Type': 'image/png', 'X-Captcha-Id': id },
  });
}

/** Replaces global fetch; every call is recorded and answered by `reply`. */
export function mockFetch(reply: Reply): { calls: Call[]; spy: MockInstance<typeof fetch> } {
  const calls: Call[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init?.body === 'string' ? init.body : null;
    const call = { url, method: init?.method ?? 'GET', body: text === null ? null : (JSON.parse(text) as unknown) };
    calls.push(call);
    return reply(call);
  });
  return { calls, spy };
}

/** The calls to one API path (query string ignored). */
export const callsTo = (calls: Call[], path: string): Call[] => calls.filter((c) => c.url.split('?')[0] === `/api${path}`);

/** Answers each API path (without /api and query) from a table; anything else fails the test. */
export function byPath(routes: Record<string, () => Response>): Reply {
  return ({ url }) => {
    const path = (url.split('?')[0] ?? url).replace(/^\/api/, '');
    const answer = routes[path];
    if (!answer) throw new Error(`unexpected ${url}`);
    return answer();
  };
}

/** Types into inputs found by id. */
export async function fill(user: UserEvent, values: Record<string, string>): Promise<void> {
  for (const [id, value] of Object.entries(values)) {
    const input = document.getElementById(id);
    if (!(input instanceof HTMLInputElement)) throw new Error(`no input #${id}`);
    await user.clear(input);
    await user.type(input, value);
  }
}

function Where() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/** Renders `Page` at `path` (its route pattern is `pattern`); any other path shows where it went. */
export function renderPage(Page: ComponentType, path: string, pattern = path.split('?')[0] ?? path): RenderResult {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: pattern, element: <Page /> },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  return render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}
