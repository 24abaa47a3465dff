import { ProgressBar } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useNavigation, useRouteError } from 'react-router';
import { ErrorPage } from '@/features/errors/ErrorPage';
import { cachedCustomPage } from '@/lib/api/customPage';
import { setSessionEndHandler } from '@/lib/http';
import { session } from '@/lib/session';
import { findRoute, loginRedirect } from './guard';
import { rememberPath } from './lastPath';

/** The page title: the platform's title and the route's name (calibration pages: the service). */
export function documentTitle(routeName: string | null, t: (key: string) => string): string {
  const base = cachedCustomPage()?.title || t('app:appName');
  if (!routeName) return base;
  const route = findRoute(window.location.pathname);
  if (route?.calibration) return t('app:calibrationService');
  return `${t(`app:route.${routeName}`)} - ${base}`;
}

export function Root() {
  const navigation = useNavigation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t, i18n } = useTranslation();
  const here = useRef(location);
  here.current = location;

  useEffect(() => {
    setSessionEndHandler(() => {
      session.clear();
      queryClient.clear();
      const { pathname, search } = here.current;
      navigate(loginRedirect(pathname, search), { replace: true });
    });
  }, [navigate, queryClient]);

  useEffect(() => {
    rememberPath(location.pathname + location.search);
    document.title = documentTitle(findRoute(location.pathname)?.name ?? null, t);
  }, [location, t, i18n.language]);

  return (
    <>
      {navigation.state !== 'idle' && (
        <div className="jc-nav-progress" role="progressbar" aria-label={t('app:loading')}>
          <ProgressBar intent="primary" />
        </div>
      )}
      <Outlet />
    </>
  );
}

/** A page that failed to load its code, or threw while drawing: the 500 page. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return <ErrorPage code={500} />;
}
