import { Suspense, useMemo } from 'react';
import { useRouteLoaderData } from 'react-router';
import { ErrorPage } from '@/features/errors/ErrorPage';
import { FullScreenLoading } from '@/components/FullScreenLoading';
import { lazyPage } from './lazy';
import { PAGES } from './pages';
import type { GuardData } from './router';
import type { RouteDef } from './routes';

/** One route's screen: its page, the 403 page when the guard refused it, or 404 when unbuilt. */
export function RoutePage({ route }: { route: RouteDef }) {
  const data = useRouteLoaderData('root') as GuardData | undefined;
  const load = PAGES[route.name];
  const Page = useMemo(() => (load ? lazyPage(load) : null), [load]);
  if (data?.forbidden) return <ErrorPage code={403} />;
  if (!Page) return <ErrorPage code={404} />;
  return (
    <Suspense fallback={<FullScreenLoading />}>
      <Page />
    </Suspense>
  );
}
