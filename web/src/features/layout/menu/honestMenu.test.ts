/**
 * Honest menus: every item a demo account is offered, in every scene it may enter, opens a page
 * that exists. The demo accounts' permissions come from the server's own role table and demo
 * seed (through Python), so a role that gains a permission is checked here the same day.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasScreen, linkOffered, offeredRoutes, sceneOffered } from '@/app/offered';
import { PAGES } from '@/app/pages';
import { ROUTES, type RouteDef } from '@/app/routes';
import { buildMenu, menuEntries, type MenuOptions } from './buildMenu';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

// Each demo account's permissions as the server's token check gathers them: its own role's and
// those of its organization roles (demo_seed.organization: acme creates the org, bob is a member).
const PRINT_PERMISSIONS = `
import json
from core.permissions import roles
from core.permissions.scenes import available_scenes, scene_permissions
from entrypoints.demo_seed import ACCOUNTS
org = {"acme": roles.ORG_CREATOR, "bob": roles.ORG_MEMBER}
out = {}
for a in ACCOUNTS:
    held = set(roles.BY_CODE[a.role].permissions) | (set(org[a.user_name].permissions) if a.user_name in org else set())
    out[a.user_name] = {"wallet": a.wallet, "scenes": {s.scene_type: scene_permissions(s.scene_type, held)
                                                       for s in available_scenes(held)}}
print(json.dumps(out))
`;

interface Demo {
  wallet: number;
  scenes: Record<string, string[]>;
}
let demo: Record<string, Demo> = {};

beforeAll(() => {
  const printed = execFileSync(join(ROOT, '.venv/bin/python'), ['-c', PRINT_PERMISSIONS], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: join(ROOT, 'src') },
    encoding: 'utf8',
  });
  demo = JSON.parse(printed) as Record<string, Demo>;
}, 60_000);

const plain: MenuOptions = { walletStatus: 0, styleModel: null };

function menuOf(user: string, scene: number, routes: readonly RouteDef[] = offeredRoutes()) {
  const account = demo[user]!;
  return menuEntries(buildMenu(routes, account.scenes[String(scene)] ?? [], scene, {
    walletStatus: account.wallet,
    styleModel: null,
  }));
}

describe('the menus of the demo accounts', () => {
  it.each(['alice', 'acme', 'bob', 'operator', 'admin'])('%s is offered only items that open a page', (user) => {
    const scenes = Object.keys(demo[user]!.scenes).map(Number).filter((scene) => sceneOffered(scene));
    expect(scenes).toContain(1);
    for (const scene of scenes) {
      const entries = menuOf(user, scene);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) {
        if (entry.external) expect(hasScreen(entry.route), entry.name).toBe(true);
        else expect(Object.hasOwn(PAGES, entry.name), `${user}: ${entry.name}`).toBe(true);
      }
    }
  });

  it('gives alice the device list, her recharge page and the FDA page, built since', () => {
    const names = menuOf('alice', 1).map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(['home', 'deviceList', 'messageList', 'consumerRecharge']));
    expect(names).toContain('fda'); // built since (issue 22): its menu item came with its page
    expect(names).toEqual(expect.arrayContaining(['waybillList', 'geofence'])); // built since, with their pages
    expect(names).toContain('operationLog'); // built since: its menu item came with its page
  });

  it("gives the operator the operation log, whose page reads every account's entries for them", () => {
    expect(demo.operator!.scenes['1']).toEqual(expect.arrayContaining(['operation.log', 'operation.log:export']));
    expect(menuOf('operator', 1).map((entry) => entry.name)).toContain('operationLog');
  });

  it('gives the operator and the administrator the offline purchases and their review, built since', () => {
    for (const user of ['operator', 'admin']) {
      expect(menuOf(user, 1).map((entry) => entry.name)).toEqual(expect.arrayContaining(['offlineBuy', 'offlineExamine']));
    }
    expect(menuOf('alice', 1).map((entry) => entry.name)).not.toContain('offlineBuy');
  });

  it('gives the operator and the administrator the recharge statistics, built since, and no customer', () => {
    for (const user of ['operator', 'admin']) {
      expect(menuOf(user, 1).map((entry) => entry.name)).toContain('rechargeStatistics');
    }
    for (const user of ['alice', 'acme', 'bob']) {
      expect(menuOf(user, 1).map((entry) => entry.name)).not.toContain('rechargeStatistics');
    }
  });

  it('offers the FDA page only with its page registered', () => {
    const { fda: _fda, ...without } = PAGES;
    expect(menuOf('alice', 1, offeredRoutes(without)).map((entry) => entry.name)).not.toContain('fda');
    expect(menuOf('alice', 1).map((entry) => entry.name)).toContain('fda');
  });
});

describe('offered routes', () => {
  const route = (name: string, extra: Partial<RouteDef> = {}): RouteDef => ({
    name, path: `/${name}`, layout: 'main', permissions: ['p'], menu: [{ scene: 1, group: 'orders', icon: 'dot' }], ...extra,
  });

  it('leaves out every route without a page, whatever the permissions', () => {
    const everything = [...new Set(ROUTES.flatMap((r) => r.permissions ?? []))];
    const offered = menuEntries(buildMenu(offeredRoutes(), everything, 1, { walletStatus: 1, styleModel: null }));
    expect(offered.filter((entry) => !entry.external && !Object.hasOwn(PAGES, entry.name))).toEqual([]);
  });

  it('drops a group whose items all lack pages', () => {
    const routes = [route('home', { menu: [{ scene: 1, group: 'top', icon: 'home' }] }), route('a'), route('b')];
    const sections = buildMenu(offeredRoutes({ home: PAGES.home! }, routes), ['p'], 1, plain);
    expect(sections.map((section) => section.group)).toEqual(['top']);
    expect(buildMenu(offeredRoutes({ home: PAGES.home!, b: PAGES.home! }, routes), ['p'], 1, plain)
      .map((section) => section.group)).toEqual(['top', 'orders']);
  });

  it('offers an external route only when it leads to an outside site or a page of ours that exists', () => {
    const calibrationServe = ROUTES.find((r) => r.name === 'calibrationServe')!;
    expect(hasScreen(calibrationServe, {})).toBe(false); // falls back to our /calibration, unbuilt
    expect(hasScreen(calibrationServe, { calibrationHome: PAGES.home! })).toBe(true);
    expect(hasScreen(ROUTES.find((r) => r.name === 'plc')!)).toBe(false); // no outside site configured
  });

  it('checks links of ours against the pages and lets outside sites through', () => {
    expect(linkOffered('/device/list')).toBe(true);
    expect(linkOffered('/consumer/download')).toBe(true);
    expect(linkOffered('/waybill/list')).toBe(true);
    expect(linkOffered('/fda')).toBe(true);
    expect(linkOffered('/no/such/page')).toBe(false);
    expect(linkOffered('https://support.example.com/chat')).toBe(true);
  });

  it('offers the cloud-chain scene only once one of its menu pages exists', () => {
    expect(sceneOffered(1, {})).toBe(true);
    expect(sceneOffered(2)).toBe(false);
    expect(sceneOffered(2, { ...PAGES, cockpit: PAGES.home! })).toBe(true);
  });
});
