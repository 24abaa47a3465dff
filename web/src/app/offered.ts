/**
 * Which routes the console offers: those with a screen. The side menu, the more menu, the scene
 * selector, the header's links and the home page's quick links list only these, so a route shows
 * up the day its page is registered in PAGES, for whoever holds its permission, and never before:
 * "still in development" is what a typed address gets, not what a menu leads to. The permission
 * catalogue stays whole; a route without a page is simply offered to nobody.
 */
import { externalUrl } from './effects';
import { findRoute } from './guard';
import { PAGES } from './pages';
import { ROUTES, type RouteDef } from './routes';

type Pages = Readonly<Record<string, unknown>>;

/**
 * Whether a route leads to something real: its own page, or for an external route an outside
 * site the installation configured, or one of our own pages that exists (calibrationServe
 * falls back to our /calibration, which is real only once its page is).
 */
export function hasScreen(route: RouteDef, pages: Pages = PAGES): boolean {
  if (!route.external) return Object.hasOwn(pages, route.name);
  const url = externalUrl(route);
  return url !== null && linkOffered(url, pages, false);
}

/**
 * Whether a link leads somewhere real: an outside site (configured by the installation) always;
 * an address of ours only when its route has a page. `externalToo` false refuses our own
 * external routes, so that two of them pointing at each other cannot loop.
 */
export function linkOffered(url: string, pages: Pages = PAGES, externalToo = true): boolean {
  const target = new URL(url, window.location.origin);
  if (target.origin !== window.location.origin) return true;
  const own = findRoute(target.pathname);
  return own !== null && (externalToo || !own.external) && hasScreen(own, pages);
}

/** The routes that have a screen, in the order of the route table. Computed per call, not once
 * at import: the external links arrive with the edition's configuration after start-up. */
export function offeredRoutes(pages: Pages = PAGES, routes: readonly RouteDef[] = ROUTES): RouteDef[] {
  return routes.filter((route) => hasScreen(route, pages));
}

/** Whether a scene has anything to show: scene 1 always (home), another only when one of its menu
 * routes has a page. A scene of nothing but unbuilt pages is left out of the selector. */
export function sceneOffered(sceneType: number, pages: Pages = PAGES, routes: readonly RouteDef[] = ROUTES): boolean {
  if (sceneType === 1) return true;
  return offeredRoutes(pages, routes).some((route) => route.menu?.some((place) => place.scene === sceneType));
}
