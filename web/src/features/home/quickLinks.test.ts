import { describe, expect, it } from 'vitest';
import { offeredRoutes } from '@/app/offered';
import type { RouteDef } from '@/app/routes';
import { dayPart, menuPath, QUICK_LINK_LIMIT, quickLinks } from './quickLinks';

const route = (name: string, permission: string, scene: 1 | 2 = 1, extra: Partial<RouteDef> = {}): RouteDef => ({
  name,
  path: `/${name}`,
  layout: 'main',
  permissions: [permission],
  menu: [{ scene, group: 'monitoring', icon: 'truck' }],
  ...extra,
});

describe('quickLinks', () => {
  it('lists the menu items of the scene the user may open, in menu order', () => {
    const routes = [route('home', 'home'), route('a', 'a'), route('b', 'b'), route('c', 'c', 2), route('d', 'd')];
    expect(quickLinks(['home', 'a', 'c', 'd'], 1, routes).map((l) => l.name)).toEqual(['a', 'd']);
    expect(quickLinks(['home', 'a', 'c', 'd'], 2, routes).map((l) => l.name)).toEqual(['c']);
  });

  it('keeps the first eight', () => {
    const routes = Array.from({ length: 12 }, (_, i) => route(`r${i}`, 'p'));
    expect(quickLinks(['p'], 1, routes)).toHaveLength(QUICK_LINK_LIMIT);
    expect(QUICK_LINK_LIMIT).toBe(8);
  });

  it('leaves out routes outside the menu, external sites and pages that need a parameter', () => {
    const routes = [
      route('plain', 'p', 1, { menu: undefined }),
      route('outside', 'p', 1, { external: true }),
      route('detail', 'p', 1, { path: '/detail/:id' }),
      route('list', 'p', 1, { path: '/consumer/list/:start?' }),
    ];
    expect(quickLinks(['p'], 1, routes)).toEqual([{ name: 'list', path: '/consumer/list', icon: 'truck' }]);
  });

  it('falls back to a neutral icon for a name Blueprint lacks', () => {
    expect(quickLinks(['p'], 1, [route('x', 'p', 1, { menu: [{ scene: 1, group: 'top', icon: 'door' }] })])[0]!.icon).toBe(
      'application',
    );
  });

  it('uses the real route table, offering only routes whose page is built', () => {
    const links = quickLinks(['home', 'device.list', 'mall', 'consumer.info', 'consumer.recharge'], 1,
      offeredRoutes());
    expect(links.map((l) => l.path)).toEqual([
      '/device/list',
      '/device/list/storage',
      '/device/list/freezer',
      '/consumer/info',
      '/consumer/recharge',
    ]);
  });
});

describe('menuPath', () => {
  it.each([
    ['/home', '/home'],
    ['/consumer/list/:start?', '/consumer/list'],
    ['/service/package/:id?', '/service/package'],
    ['/device/detail/:deviceId', null],
  ])('%s → %s', (path, expected) => {
    expect(menuPath(path)).toBe(expected);
  });
});

describe('dayPart', () => {
  it.each([
    [4, 'evening'],
    [5, 'morning'],
    [11, 'morning'],
    [12, 'afternoon'],
    [17, 'afternoon'],
    [18, 'evening'],
    [23, 'evening'],
  ])('%s h is %s', (hour, part) => {
    expect(dayPart(hour)).toBe(part);
  });
});
