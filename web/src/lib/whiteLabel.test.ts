import { describe, expect, it } from 'vitest';
import { KEYS, write } from '@/lib/storage';
import type { CustomPage } from './api/customPage';
import {
  applyThemeColor,
  applyWhiteLabel,
  contrastRatio,
  DEFAULT_THEME,
  resolveThemeColor,
  storedThemeChoice,
  themeColorOf,
  themeShades,
} from './whiteLabel';

const page = (extra: Partial<CustomPage> = {}): CustomPage => ({
  id: 1,
  topDomain: 'demo.localhost',
  title: 'Demo Cloud',
  defaultCamp: 1,
  enableRegister: 0,
  useElitechLogo: 0,
  forceHttps: 0,
  ...extra,
});

const cssVar = (name: string) => document.documentElement.style.getPropertyValue(name);

describe('theme colour', () => {
  it('is the platform colour when it is a hex colour, else the product colour', () => {
    expect(themeColorOf(page({ themeColor: '#ec6c00' }))).toBe('#ec6c00');
    expect(themeColorOf(page({ themeColor: '#abc' }))).toBe('#abc');
    expect(themeColorOf(page({ themeColor: 'orange' }))).toBe(DEFAULT_THEME);
    expect(themeColorOf(page({ themeColor: null }))).toBe(DEFAULT_THEME);
    expect(themeColorOf(null)).toBe('#547DF2');
  });

  it('is the user choice first, then the platform colour, then the product colour', () => {
    expect(resolveThemeColor(page({ themeColor: '#ec6c00' }), '#722ED1')).toBe('#722ED1');
    expect(resolveThemeColor(page({ themeColor: '#ec6c00' }), null)).toBe('#ec6c00');
    expect(resolveThemeColor(page({ themeColor: '#ec6c00' }), 'not-a-colour')).toBe('#ec6c00');
    expect(resolveThemeColor(null, null)).toBe(DEFAULT_THEME);
  });

  it('reads the user choice from jc__theme and ignores a bad value', () => {
    expect(storedThemeChoice()).toBeNull();
    write(KEYS.theme, '#389E0D');
    expect(storedThemeChoice()).toBe('#389E0D');
    write(KEYS.theme, 'dark');
    expect(storedThemeChoice()).toBeNull();
  });
});

describe('theme shades', () => {
  it('darkens for hover and press and tints for soft backgrounds', () => {
    const shades = themeShades('#547DF2');
    expect(shades.rest).toBe('#547df2');
    expect(shades.hover).toBe('#4a6ed5');
    expect(shades.active).toBe('#405fb8');
    expect(shades.soft).toBe('rgb(84 125 242 / 10%)');
  });

  it('expands three-digit colours', () => {
    expect(themeShades('#fff').rest).toBe('#ffffff');
  });

  it('puts white text on strong colours and dark text on light ones', () => {
    expect(themeShades('#547DF2').foreground).toBe('#ffffff');
    expect(themeShades('#ec6c00').foreground).toBe('#ffffff');
    expect(themeShades('#FAAD14').foreground).toBe('#1c2127');
    expect(themeShades('#ffffff').foreground).toBe('#1c2127');
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
  });
});

describe('applying the look', () => {
  it('drives the layout and Blueprint primary colours through CSS variables', () => {
    applyThemeColor('#ec6c00');
    expect(cssVar('--jc-theme')).toBe('#ec6c00');
    expect(cssVar('--bp-intent-primary-rest')).toBe('#ec6c00');
    expect(cssVar('--bp-intent-primary-hover')).toBe(cssVar('--jc-theme-hover'));
    expect(cssVar('--jc-theme-fg')).toBe('#ffffff');
  });

  it('falls back to the product colour for a bad value', () => {
    applyThemeColor('nope');
    expect(cssVar('--jc-theme')).toBe('#547df2');
  });

  it('applies the platform colour and browser icon', () => {
    const icon = document.createElement('link');
    icon.id = 'jc-favicon';
    icon.rel = 'icon';
    icon.href = '/favicon.svg';
    document.head.append(icon);
    applyWhiteLabel(page({ themeColor: '#08979C', browserLogo: 'https://cdn.example/icon.png' }), document, null);
    expect(cssVar('--jc-theme')).toBe('#08979c');
    expect(icon.href).toBe('https://cdn.example/icon.png');
    icon.remove();
  });

  it('lets the stored user choice win over the platform colour', () => {
    write(KEYS.theme, '#722ED1');
    applyWhiteLabel(page({ themeColor: '#08979C' }));
    expect(cssVar('--jc-theme')).toBe('#722ed1');
  });

  it('keeps the browser icon when the platform has none', () => {
    const icon = document.createElement('link');
    icon.id = 'jc-favicon';
    icon.href = 'http://localhost/favicon.svg';
    document.head.append(icon);
    applyWhiteLabel(null);
    expect(icon.href).toBe('http://localhost/favicon.svg');
    expect(cssVar('--jc-theme')).toBe('#547df2');
    icon.remove();
  });
});
