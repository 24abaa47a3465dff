import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, read, write } from '@/lib/storage';
import { COLOUR_WEAK_CLASS, DEFAULT_SETTINGS, readSettings, settingsStore, THEME_PALETTE } from './settings';

afterEach(() => settingsStore.reload());

describe('layout settings', () => {
  it('defaults to a fixed header and sidebar, tabs on, no auto-hide, no colour weakness', () => {
    expect(readSettings()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({ fixedHeader: true, fixedSidebar: true, multiTab: true, autoHideHeader: false });
  });

  it('reads each setting from its jc__ key', () => {
    write(KEYS.fixedHeader, false);
    write(KEYS.fixedSidebar, false);
    write(KEYS.autoHideHeader, true);
    write(KEYS.colorWeak, true);
    write(KEYS.multiTab, false);
    write(KEYS.theme, '#722ED1');
    write(KEYS.sidebar, 0);
    expect(readSettings()).toEqual({
      fixedHeader: false, fixedSidebar: false, autoHideHeader: true, colourWeak: true, multiTab: false,
      theme: '#722ED1', sidebarCollapsed: true,
    });
  });

  it('ignores stored values of the wrong kind', () => {
    write(KEYS.multiTab, 'no');
    write(KEYS.theme, 'dark');
    expect(readSettings()).toMatchObject({ multiTab: true, theme: null });
  });

  it('stores a change and applies it at once', () => {
    settingsStore.update({ colourWeak: true, sidebarCollapsed: true, theme: '#08979C' });
    expect(read(KEYS.colorWeak, null)).toBe(true);
    expect(read(KEYS.sidebar, null)).toBe(0);
    expect(document.documentElement).toHaveClass(COLOUR_WEAK_CLASS);
    expect(document.documentElement.style.getPropertyValue('--jc-theme')).toBe('#08979c');
    settingsStore.reset();
    expect(document.documentElement).not.toHaveClass(COLOUR_WEAK_CLASS);
    expect(read(KEYS.sidebar, null)).toBe(0);
    expect(settingsStore.get().theme).toBeNull();
  });

  it('offers nine colours, the palette opening with #ec6c00', () => {
    expect(THEME_PALETTE).toHaveLength(9);
    expect(THEME_PALETTE[0].color).toBe('#ec6c00');
    expect(THEME_PALETTE.map((c) => c.color)).toContain('#547DF2');
  });
});
