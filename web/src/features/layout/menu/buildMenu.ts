/**
 * The console menu, built from the route table and the current scene's permissions
 * (spec seed 000 section 4 "Menu building", seed 001 section 6).
 */
import { isIconName, type IconName } from '@/lib/icons';
import { JUNJIA, landingPath, type MenuGroup, type RouteDef } from '@/app/routes';

/** The only routes a `junjia` platform shows, still subject to the permissions. */
export const JUNJIA_MENU: readonly string[] = [
  'messageList',
  'deviceList',
  'storageList',
  'freezerList',
  'organizationList',
  'consumerList',
  'consumerInfo',
  'consumerRecharge',
  'consumerDownload',
];

export const HOME_ROUTE = 'home';
export const WALLET_ROUTE = 'consumerWallet';
/** The wallet shows only to accounts whose wallet is switched on. */
export const WALLET_ON = 1;

/** What besides permissions shapes the menu. */
export interface MenuOptions {
  /** `userProfile.walletStatus`: the wallet item needs 1. */
  walletStatus: number | null | undefined;
  /** The cached custom page's `styleModel`. */
  styleModel: string | null | undefined;
}

/** One item of the menu. */
export interface MenuEntry {
  /** The route's name (its title is `app:route.<name>`). */
  name: string;
  /** Where the item leads (optional path parameters dropped). */
  path: string;
  /** The Blueprint icon drawn. */
  icon: IconName;
  /** Opens an outside site instead of navigating. */
  external: boolean;
  /** The route it leads to. */
  route: RouteDef;
}

/** A group of the menu, titled `app:menuGroup.<group>`. */
export interface MenuSection {
  /** The group of the items' menu places. */
  group: MenuGroup;
  /** The group's icon (shown when the sidebar is collapsed). */
  icon: IconName;
  /** Its items, in the order of the route table. */
  items: MenuEntry[];
}

const GROUP_ICONS: Record<MenuGroup, IconName> = {
  top: 'home',
  monitoring: 'pulse',
  consumer: 'user',
  operations: 'wrench',
  product: 'cube',
  orders: 'shopping-cart',
  system: 'cog',
  dataCenter: 'database',
  statistics: 'chart',
  marketing: 'shop',
  settlement: 'bank-account',
  cloudChain: 'cloud',
};

/** The icon for a route's icon name (routes.test.ts keeps every name in lib/icons' table). */
export function menuIcon(name: string): IconName {
  return isIconName(name) ? name : 'dot';
}

export function groupIcon(group: MenuGroup): IconName {
  return GROUP_ICONS[group];
}

export { JUNJIA };

/** Whether a platform's style model restricts the menu. */
export function isJunjia(styleModel: string | null | undefined): boolean {
  return styleModel === JUNJIA;
}

/** Where the console lands by default: the device list on `junjia` platforms, else home. */
/** Where the console lands: see landingPath. */
export const defaultPath = landingPath;

/** A menu link for a route path: optional parameters (`/:start?`) are left out. */
export function menuPath(path: string): string {
  return path.replace(/\/:[^/]+\?/g, '') || '/';
}

function entryOf(route: RouteDef, sceneId: number): MenuEntry & { group: MenuGroup } {
  const place = route.menu?.find((p) => p.scene === sceneId) ?? route.menu?.[0];
  return {
    name: route.name,
    path: menuPath(route.path),
    icon: menuIcon(place?.icon ?? 'dot'),
    external: route.external === true,
    route,
    group: place?.group ?? 'top',
  };
}

function permitted(route: RouteDef, held: ReadonlySet<string>): boolean {
  return !route.permissions || route.permissions.length === 0 || route.permissions.some((p) => held.has(p));
}

/**
 * The menu of a scene: routes with a menu place in the scene whose permissions (any one) the
 * scene's list holds; the wallet only when switched on; a `junjia` platform keeps only its fixed
 * list, other platforms always get home. Groups keep the order of the route table, `top` first.
 */
export function buildMenu(
  routes: readonly RouteDef[],
  scenePermissions: readonly string[],
  sceneId: number,
  options: MenuOptions,
): MenuSection[] {
  const held = new Set(scenePermissions);
  const junjia = isJunjia(options.styleModel);
  const chosen = routes.filter(
    (route) =>
      route.menu?.some((place) => place.scene === sceneId) &&
      permitted(route, held) &&
      (route.name !== WALLET_ROUTE || options.walletStatus === WALLET_ON) &&
      (!junjia || JUNJIA_MENU.includes(route.name)),
  );
  const entries = chosen.map((route) => entryOf(route, sceneId));

  const home = routes.find((route) => route.name === HOME_ROUTE);
  if (!junjia && home && !entries.some((entry) => entry.name === HOME_ROUTE)) {
    entries.unshift({ ...entryOf(home, sceneId), icon: 'home', group: 'top' });
  }

  const sections: MenuSection[] = [];
  for (const { group, ...entry } of entries) {
    let section = sections.find((s) => s.group === group);
    if (!section) {
      section = { group, icon: groupIcon(group), items: [] };
      sections.push(section);
    }
    section.items.push(entry);
  }
  return sections.sort((a, b) => Number(b.group === 'top') - Number(a.group === 'top'));
}

/** Every item of a menu, in order. */
export function menuEntries(sections: readonly MenuSection[]): MenuEntry[] {
  return sections.flatMap((section) => section.items);
}
