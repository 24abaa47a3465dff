import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteDef } from '@/app/routes';
import { buildMenu, defaultPath, JUNJIA_MENU, menuEntries, menuIcon, menuPath, type MenuOptions } from './buildMenu';

const plain: MenuOptions = { walletStatus: 0, styleModel: null };
const names = (permissions: string[], scene = 1, options: MenuOptions = plain) =>
  menuEntries(buildMenu(ROUTES, permissions, scene, options)).map((entry) => entry.name);

const route = (name: string, extra: Partial<RouteDef> = {}): RouteDef => ({
  name,
  path: `/${name}`,
  layout: 'main',
  permissions: [name],
  menu: [{ scene: 1, group: 'monitoring', icon: 'pulse' }],
  ...extra,
});

describe('buildMenu', () => {
  it('keeps the routes of the scene whose permission the scene list holds', () => {
    expect(names(['home', 'device.list', 'waybill.list'])).toEqual([
      'home', 'deviceList', 'storageList', 'freezerList', 'waybillList',
    ]);
  });

  it('keeps an item when any one of its permissions is held', () => {
    const routes = [route('a', { permissions: ['x', 'y'] }), route('b', { permissions: ['z'] })];
    expect(menuEntries(buildMenu(routes, ['y'], 1, plain)).map((e) => e.name)).toEqual(['a']);
  });

  it('keeps an item that asks for no permission', () => {
    const routes = [route('open', { permissions: undefined })];
    expect(menuEntries(buildMenu(routes, [], 1, plain)).map((e) => e.name)).toEqual(['open']);
  });

  it('leaves out routes without a menu place in the current scene', () => {
    expect(names(['device.list', 'cloudChain.cockpit', 'cloudChain.myProject'], 2)).toEqual([
      'home', 'projectList', 'cockpit',
    ]);
    expect(names(['cloudChain.cockpit'], 1)).toEqual(['home']);
  });

  it('never lists routes that have no menu place at all, such as detail pages', () => {
    expect(names(['device.list'])).not.toContain('deviceDetail');
  });

  it('shows the wallet only when the wallet status is 1', () => {
    expect(names(['consumer.wallet'], 1, { walletStatus: 0, styleModel: null })).not.toContain('consumerWallet');
    expect(names(['consumer.wallet'], 1, { walletStatus: null, styleModel: null })).not.toContain('consumerWallet');
    expect(names(['consumer.wallet'], 1, { walletStatus: 1, styleModel: null })).toContain('consumerWallet');
  });

  it('needs the wallet permission even when the wallet is on', () => {
    expect(names([], 1, { walletStatus: 1, styleModel: null })).not.toContain('consumerWallet');
  });

  it('always adds home outside the junjia model, even without its permission', () => {
    expect(names([])).toEqual(['home']);
    expect(names(['device.list'])[0]).toBe('home');
    expect(names(['home', 'device.list']).filter((n) => n === 'home')).toHaveLength(1);
  });

  it('restricts a junjia platform to its fixed list intersected with the permissions', () => {
    const everything = [...new Set(ROUTES.flatMap((r) => r.permissions ?? []))];
    const junjia = { walletStatus: 1, styleModel: 'junjia' };
    const all = names(everything, 1, junjia);
    expect(all).toHaveLength(JUNJIA_MENU.length);
    expect(new Set(all)).toEqual(new Set(JUNJIA_MENU));
    expect(names(['device.list', 'message.list', 'consumer.info', 'home', 'waybill.list'], 1, junjia)).toEqual([
      'messageList', 'deviceList', 'storageList', 'freezerList', 'consumerInfo',
    ]);
  });

  it('does not add home on a junjia platform, which lands on the device list', () => {
    expect(names(['home'], 1, { walletStatus: 0, styleModel: 'junjia' })).toEqual([]);
    expect(defaultPath('junjia')).toBe('/device/list');
    expect(defaultPath(null)).toBe('/home');
    expect(defaultPath('other')).toBe('/home');
  });

  it('groups items by their place, top group first, in the order of the route table', () => {
    const sections = buildMenu(ROUTES, ['mall', 'device.list', 'consumer.info', 'message.list'], 1, plain);
    expect(sections.map((s) => s.group)).toEqual(['top', 'monitoring', 'consumer']);
    expect(sections[0]!.items.map((i) => i.name)).toEqual(['home', 'mallCenter']);
    expect(sections[1]!.items.map((i) => i.name)).toEqual(['messageList', 'deviceList', 'storageList', 'freezerList']);
  });

  it('uses the icon of the place, and a dot for a name Blueprint does not have', () => {
    const [top, monitoring] = buildMenu(ROUTES, ['device.list', 'operateBoard.report'], 1, plain);
    expect(top!.items[0]!.icon).toBe('home');
    expect(monitoring!.items.find((i) => i.name === 'deviceList')!.icon).toBe('temperature');
    expect(monitoring!.items.find((i) => i.name === 'doorContact')!.icon).toBe('log-in');
    expect(menuIcon('no-such-icon')).toBe('dot');
  });

  it('marks external routes so that they open a window instead of navigating', () => {
    const items = menuEntries(buildMenu(ROUTES, ['operation.plc.list', 'calibrationServe'], 1, plain));
    expect(items.filter((i) => i.external).map((i) => i.name)).toEqual(['plc', 'calibrationServe']);
    expect(items.find((i) => i.name === 'opPlcList')!.external).toBe(false);
  });

  it('links to a route without its optional parameters', () => {
    expect(menuPath('/consumer/list/:start?')).toBe('/consumer/list');
    expect(menuPath('/service/package/:id?')).toBe('/service/package');
    expect(menuPath('/device/list')).toBe('/device/list');
    expect(menuEntries(buildMenu(ROUTES, ['consumer.list'], 1, plain)).find((i) => i.name === 'consumerList')!.path)
      .toBe('/consumer/list');
  });
});
