/** Applies a platform's look: browser icon and theme colour (title and logos are read where shown). */
import type { CustomPage } from './api/customPage';

export const DEFAULT_THEME = '#547DF2'; // spec seed 000 section 9
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function themeColorOf(page: CustomPage | null): string {
  const color = page?.themeColor ?? '';
  return HEX.test(color) ? color : DEFAULT_THEME;
}

export function applyWhiteLabel(page: CustomPage | null, doc: Document = document): void {
  doc.documentElement.style.setProperty('--jc-theme', themeColorOf(page));
  const icon = doc.getElementById('jc-favicon');
  if (icon instanceof HTMLLinkElement && page?.browserLogo) icon.href = page.browserLogo;
}
