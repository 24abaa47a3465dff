/**
 * The layout's display settings (spec seed 000 section 3 "Stored client settings"), each stored
 * under its own jc__ key and applied at once: fixed header, fixed sidebar, auto-hide header,
 * colour weakness, multi-tab bar, theme colour and the sidebar's collapse state.
 */
import { useSyncExternalStore } from 'react';
import { cachedCustomPage } from '@/features/platform/api/customPage';
import { applyThemeColor, isThemeColor, resolveThemeColor } from '@/features/platform/whiteLabel';
import { KEYS, read, remove, write } from '@/lib/storage';

/**
 * The nine colours offered in the display settings; the first is the palette's default. The spec
 * names them (seed 000 section 9) and stored choices hold these values: not Blueprint's palette.
 */
export const THEME_PALETTE = [
  { id: 'orange', color: '#ec6c00' },
  { id: 'blue', color: '#547DF2' },
  { id: 'red', color: '#F5222D' },
  { id: 'volcano', color: '#FA541C' },
  { id: 'gold', color: '#AD6800' },
  { id: 'cyan', color: '#08979C' },
  { id: 'green', color: '#389E0D' },
  { id: 'geekblue', color: '#2F54EB' },
  { id: 'purple', color: '#722ED1' },
] as const;

export const COLOUR_WEAK_CLASS = 'jc-colour-weak';

export interface LayoutSettings {
  /** The header stays on top while the content scrolls. */
  fixedHeader: boolean;
  /** The sidebar stays in view, scrolling on its own. */
  fixedSidebar: boolean;
  /** Hide the header while scrolling down past 300 px (only with a fixed header). */
  autoHideHeader: boolean;
  /** Colour weakness mode (class `jc-colour-weak` on `<html>`). */
  colourWeak: boolean;
  /** The multi-tab bar shows. */
  multiTab: boolean;
  /** The user's own theme colour; null follows the platform. */
  theme: string | null;
  /** The sidebar is collapsed to icons (desktop widths). */
  sidebarCollapsed: boolean;
}

export const DEFAULT_SETTINGS: LayoutSettings = {
  fixedHeader: true,
  fixedSidebar: true,
  autoHideHeader: false,
  colourWeak: false,
  multiTab: true,
  theme: null,
  sidebarCollapsed: false,
};

/** The sidebar key keeps the classic 1 (opened) / 0 (collapsed). */
const SIDEBAR_OPENED = 1;
const SIDEBAR_COLLAPSED = 0;

function flag(key: (typeof KEYS)[keyof typeof KEYS], fallback: boolean): boolean {
  const value = read<unknown>(key, fallback);
  return typeof value === 'boolean' ? value : fallback;
}

export function readSettings(): LayoutSettings {
  const theme = read<unknown>(KEYS.theme, null);
  return {
    fixedHeader: flag(KEYS.fixedHeader, DEFAULT_SETTINGS.fixedHeader),
    fixedSidebar: flag(KEYS.fixedSidebar, DEFAULT_SETTINGS.fixedSidebar),
    autoHideHeader: flag(KEYS.autoHideHeader, DEFAULT_SETTINGS.autoHideHeader),
    colourWeak: flag(KEYS.colorWeak, DEFAULT_SETTINGS.colourWeak),
    multiTab: flag(KEYS.multiTab, DEFAULT_SETTINGS.multiTab),
    theme: isThemeColor(theme) ? theme : null,
    sidebarCollapsed: read<unknown>(KEYS.sidebar, SIDEBAR_OPENED) === SIDEBAR_COLLAPSED,
  };
}

function store(settings: LayoutSettings): void {
  write(KEYS.fixedHeader, settings.fixedHeader);
  write(KEYS.fixedSidebar, settings.fixedSidebar);
  write(KEYS.autoHideHeader, settings.autoHideHeader);
  write(KEYS.colorWeak, settings.colourWeak);
  write(KEYS.multiTab, settings.multiTab);
  if (settings.theme) write(KEYS.theme, settings.theme);
  else remove(KEYS.theme);
  write(KEYS.sidebar, settings.sidebarCollapsed ? SIDEBAR_COLLAPSED : SIDEBAR_OPENED);
}

/** Puts the settings that are not layout markup into effect: colour weakness and theme colour. */
export function applySettings(settings: LayoutSettings, doc: Document = document): void {
  doc.documentElement.classList.toggle(COLOUR_WEAK_CLASS, settings.colourWeak);
  applyThemeColor(resolveThemeColor(cachedCustomPage(), settings.theme), doc);
}

let state: LayoutSettings = readSettings();
const listeners = new Set<() => void>();

export const settingsStore = {
  get: (): LayoutSettings => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Changes some settings: stored, applied and drawn at once. */
  update(change: Partial<LayoutSettings>): void {
    state = { ...state, ...change };
    store(state);
    applySettings(state);
    listeners.forEach((listener) => listener());
  },
  /** Back to the defaults (the sidebar keeps its state). */
  reset(): void {
    settingsStore.update({ ...DEFAULT_SETTINGS, sidebarCollapsed: state.sidebarCollapsed });
  },
  /** Reads the stored settings again (another user, a test) and applies them. */
  reload(): void {
    state = readSettings();
    applySettings(state);
    listeners.forEach((listener) => listener());
  },
};

export function useLayoutSettings(): LayoutSettings {
  return useSyncExternalStore(settingsStore.subscribe, settingsStore.get, settingsStore.get);
}
