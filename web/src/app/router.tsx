import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { FullScreenLoading } from '@/components/FullScreenLoading';
import { LAYOUTS } from '@/features/layout/layouts';
import { guardEffects } from './effects';
import { rememberedPath } from './lastPath';
import { runGuard } from './guard';
import { Root, RouteError } from './Root';
import { RoutePage } from './RoutePage';
import { ROUTES, type LayoutName, type RouteDef } from './routes';

export interface GuardData {
  route: RouteDef | null;
  forbidden: boolean;
}

export function buildRoutes(queryClient: QueryClient): RouteObject[] {
  const effects = guardEffects(queryClient);
  async function loader({ request }: LoaderFunctionArgs): Promise<GuardData> {
    const url = new URL(request.url);
    const outcome = await runGuard(url.pathname, url.search, effects);
    switch (outcome.kind) {
      case 'page':
        return { route: outcome.route, forbidden: false };
      case 'forbidden':
        return { route: outcome.route, forbidden: true };
      case 'redirect':
        throw redirect(outcome.to);
      case 'stay':
        throw redirect(rememberedPath() === url.pathname + url.search ? '/' : rememberedPath());
      case 'leaving':
        return { route: null, forbidden: false };
    }
  }

  const byLayout = new Map<LayoutName, RouteDef[]>();
  ROUTES.forEach((route) => byLayout.set(route.layout, [...(byLayout.get(route.layout) ?? []), route]));
  const children: RouteObject[] = [...byLayout.entries()].map(([layout, routes]) => {
    const Layout = LAYOUTS[layout];
    return {
      element: <Layout />,
      children: routes.map((route) => ({ path: route.path, element: <RoutePage route={route} /> })),
    };
  });
  children.push({ path: '*', element: null });

  return [
    {
      id: 'root',
      path: '/',
      loader,
      // The guard runs on every navigation, not only when the matched route changes.
      shouldRevalidate: () => true,
      element: <Root />,
      // The first page load waits for the guard (session, permissions) behind the full-screen overlay.
      hydrateFallbackElement: <FullScreenLoading />,
      errorElement: <RouteError />,
      children,
    },
  ];
}

export function createRouter(queryClient: QueryClient) {
  return createBrowserRouter(buildRoutes(queryClient));
}
