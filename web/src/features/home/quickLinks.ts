/** The home page's quick links: menu items of the current scene that the user may open (HomePage passes only routes with a page). */
import { isIconName, type IconName } from '@/lib/icons';
import { ROUTES, type RouteDef } from '@/app/routes';

export const QUICK_LINK_LIMIT = 8;

export interface QuickLink {
  name: string;
  path: string;
  icon: IconName;
}

/** The path to open a menu route: optional parameters dropped; null when it needs a parameter. */
export function menuPath(path: string): string | null {
  const bare = path.replace(/\/:[A-Za-z]+\?/g, '');
  return bare.includes(':') ? null : bare || '/';
}

function iconOf(name: string): IconName {
  return isIconName(name) ? name : 'application';
}

/** Menu routes of `sceneId` opened by one of `held`, in menu order, without the home page itself. */
export function quickLinks(
  held: readonly string[],
  sceneId: number,
  routes: readonly RouteDef[] = ROUTES,
  limit = QUICK_LINK_LIMIT,
): QuickLink[] {
  const granted = new Set(held);
  const links: QuickLink[] = [];
  for (const route of routes) {
    if (links.length >= limit) break;
    const place = route.menu?.find((item) => item.scene === sceneId);
    const path = menuPath(route.path);
    if (!place || !path || route.name === 'home' || route.external) continue;
    if (!route.permissions?.some((permission) => granted.has(permission))) continue;
    links.push({ name: route.name, path, icon: iconOf(place.icon) });
  }
  return links;
}

export type DayPart = 'morning' | 'afternoon' | 'evening';

export function dayPart(hour: number): DayPart {
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 18) return 'afternoon';
  return 'evening';
}
