import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useRouteLoaderData } from 'react-router';
import { ErrorPage } from '@/features/errors/ErrorPage';
import { PageLoading } from '@/components/PageLoading';
import { lazyPage } from './lazy';
import { PAGES } from './pages';
import type { GuardData } from './router';
import type { RouteDef } from './routes';

// One lazy component per page for the life of the app: a new lazy() per render would start over
// whenever the router re-renders during a navigation, and the page would never settle.
const lazyPages = new Map<string, LazyExoticComponent<ComponentType>>();

export function pageFor(name: string): LazyExoticComponent<ComponentType> | null {
  const load = PAGES[name];
  if (!load) return null;
  let page = lazyPages.get(name);
  if (!page) {
    page = lazyPage(load);
    lazyPages.set(name, page);
  }
  return page;
}

/** One route's screen: its page, the 403 page when the guard refused it, or 404 when unbuilt. */
export function RoutePage({ route }: { route: RouteDef }) {
  const data = useRouteLoaderData('root') as GuardData | undefined;
  const Page = pageFor(route.name);
  if (data?.forbidden) return <ErrorPage code={403} />;
  if (!Page) return <ErrorPage code={404} />;
  return (
    <Suspense fallback={<PageLoading />}>
      <Page />
    </Suspense>
  );
}
