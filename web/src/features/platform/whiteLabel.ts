/**
 * Applies a platform's look: browser icon and theme colour (title and logos are read where shown).
 * The theme colour drives the console's primary colour through CSS variables: `--jc-theme*` for
 * the layout and Blueprint's `--bp-intent-primary-*` for its buttons, tags and focus.
 */
import { Colors } from '@blueprintjs/colors';
import { KEYS, read } from '@/lib/storage';
import type { CustomPage } from './api/customPage';

export const DEFAULT_THEME = '#547DF2'; // spec seed 000 section 9
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
// Blueprint's palette, in the lower case hexOf writes every shade in.
const WHITE = Colors.WHITE.toLowerCase();
const DARK_TEXT = Colors.DARK_GRAY1.toLowerCase();

export function isThemeColor(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value);
}

export function themeColorOf(page: CustomPage | null): string {
  const color = page?.themeColor ?? '';
  return HEX.test(color) ? color : DEFAULT_THEME;
}

/** The colour the console is drawn in: the user's own choice, else the platform's, else the product's. */
export function resolveThemeColor(page: CustomPage | null, chosen: string | null | undefined): string {
  return isThemeColor(chosen) ? chosen : themeColorOf(page);
}

/** The colour the user picked in the display settings (jc__theme), if any. */
export function storedThemeChoice(): string | null {
  const chosen = read<unknown>(KEYS.theme, null);
  return isThemeColor(chosen) ? chosen : null;
}

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

function hexOf([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function mix(color: Rgb, other: Rgb, amount: number): Rgb {
  return color.map((c, i) => c + ((other[i] as number) - c) * amount) as Rgb;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours. */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** The shades of a theme colour the layout draws with. */
export interface ThemeShades {
  rest: string;
  hover: string;
  active: string;
  disabled: string;
  /** A 10 % tint for selected rows, active tabs and hovers on light ground. */
  soft: string;
  /** Text on the theme colour: white unless that would be hard to read. */
  foreground: string;
}

export function themeShades(color: string): ThemeShades {
  const rgb = rgbOf(color);
  const white: Rgb = [255, 255, 255];
  const black: Rgb = [0, 0, 0];
  const [r, g, b] = rgb;
  const readableOnWhite = contrastRatio(color, WHITE) >= 3 || contrastRatio(color, WHITE) >= contrastRatio(color, DARK_TEXT);
  return {
    rest: hexOf(rgb),
    hover: hexOf(mix(rgb, black, 0.12)),
    active: hexOf(mix(rgb, black, 0.24)),
    disabled: hexOf(mix(rgb, white, 0.45)),
    soft: `rgb(${r} ${g} ${b} / 10%)`,
    foreground: readableOnWhite ? WHITE : DARK_TEXT,
  };
}

/** Draws the console in a theme colour (a bad value draws it in the product's colour). */
export function applyThemeColor(color: string, doc: Document = document): void {
  const shades = themeShades(isThemeColor(color) ? color : DEFAULT_THEME);
  const style = doc.documentElement.style;
  const vars: Record<string, string> = {
    '--jc-theme': shades.rest,
    '--jc-theme-hover': shades.hover,
    '--jc-theme-active': shades.active,
    '--jc-theme-soft': shades.soft,
    '--jc-theme-fg': shades.foreground,
    '--bp-intent-primary-rest': shades.rest,
    '--bp-intent-primary-hover': shades.hover,
    '--bp-intent-primary-active': shades.active,
    '--bp-intent-primary-disabled': shades.disabled,
    '--bp-intent-primary-foreground': shades.foreground,
  };
  Object.entries(vars).forEach(([name, value]) => style.setProperty(name, value));
}

/** The platform's browser icon and theme colour (the user's own colour choice wins over the platform's). */
export function applyWhiteLabel(
  page: CustomPage | null,
  doc: Document = document,
  chosen: string | null = storedThemeChoice(),
): void {
  applyThemeColor(resolveThemeColor(page, chosen), doc);
  const icon = doc.getElementById('jc-favicon');
  if (icon instanceof HTMLLinkElement && page?.browserLogo) icon.href = page.browserLogo;
}
