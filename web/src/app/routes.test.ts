import { describe, expect, it } from 'vitest';
import { isIconName } from '@/lib/icons';
import { ROUTES } from './routes';
import appEn from './locales/en-US.json';

function title(name: string): unknown {
  return name.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], appEn.route);
}

describe('the route catalogue', () => {
  it('has unique names and paths', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });

  it('draws every menu item with an icon of the imported table', () => {
    const unknown = ROUTES.flatMap((r) => r.menu ?? []).map((m) => m.icon).filter((icon) => !isIconName(icon));
    expect(unknown).toEqual([]);
  });

  it('gives every route a title', () => {
    expect(ROUTES.filter((r) => typeof title(r.name) !== 'string').map((r) => r.name)).toEqual([]);
  });

  it('names a permission for every signed-in console route', () => {
    const open = ROUTES.filter((r) => r.layout === 'main' && !r.public && !r.permissions?.length);
    expect(open.map((r) => r.name)).toEqual([]);
  });
});
