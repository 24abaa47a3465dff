/**
 * Honest menus in a real browser against `coldchain serve` with demo data: every item of the side
 * menu that alice, acme, bob and the operator are offered opens a real page, never the "still in
 * development" one, and every quick link of the home page does too. The operator lands on the
 * operator home. Screenshots go to var/screenshots/ (menus-*.png).
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { brokenWords, browserSession, logInPastNotice, readLocale, shot, withProfileFilledIn } from './browser';

const baseURL = inject('baseURL');
const unbuilt = (readLocale('errors/locales', 'en-US') as { page404: string }).page404;

const session = browserSession({ viewport: { width: 1440, height: 900 } });
let page: Page;
beforeEach(() => {
  page = session.page;
});

interface Item {
  testId: string;
  href: string;
}

async function menuItems(target: Page): Promise<Item[]> {
  const sidebar = target.getByTestId('sidebar');
  await sidebar.locator('[data-testid^="menu-"]').first().waitFor();
  return sidebar.locator('[data-testid^="menu-"]').evaluateAll((links) =>
    links.map((link) => ({ testId: link.getAttribute('data-testid') ?? '', href: link.getAttribute('href') ?? '' })),
  );
}

/** The page at the current address has settled and is not the error page. */
async function expectRealPage(target: Page, what: string): Promise<void> {
  await target.waitForLoadState('networkidle');
  const content = target.locator('#jc-content');
  // A lazily loaded page's chunk and first answer took over 5 s in CI beside three pytest processes.
  await expect.poll(async () => (await content.innerText()).trim().length, { message: what, timeout: 30_000 })
    .toBeGreaterThan(0);
  expect(await target.locator('[data-testid^="error-"]').count(), what).toBe(0);
  expect(await content.innerText(), what).not.toContain(unbuilt);
}

describe('honest menus', () => {
  it.each(['alice', 'acme', 'bob', 'operator'])('%s: every menu item and quick link opens a real page', async (user) => {
    if (user === 'bob') await withProfileFilledIn(page);
    await logInPastNotice(page, baseURL, user, 'en-US');
    await page.waitForURL(/\/home$/);
    const items = await menuItems(page);
    expect(items.length).toBeGreaterThan(0);
    expect(items.map((item) => item.testId)).toContain('menu-home');
    // nothing opens an outside site in the demo: no external link is configured
    expect(await page.getByTestId('sidebar').locator('a[target="_blank"]').count()).toBe(0);

    for (const item of items) {
      await page.getByTestId('sidebar').getByTestId(item.testId).click();
      await page.waitForURL((url) => url.pathname === item.href);
      await expectRealPage(page, `${user}: ${item.testId} (${item.href})`);
    }

    await page.getByTestId('sidebar').getByTestId('menu-home').click();
    await page.waitForURL(/\/home$/);
    const quick = await page.getByTestId('home-quick-link').evaluateAll((links) => links.map((l) => l.getAttribute('href') ?? ''));
    for (const href of quick) {
      await page.goto(`${baseURL}${href}`);
      await expectRealPage(page, `${user}: quick link ${href}`);
    }
    await page.goto(`${baseURL}/home`);
    await expectRealPage(page, `${user}: home`);
    await shot(page, `menus-${user}`);
  });

  it('lands the operator on the operator home with counts across every customer', async () => {
    await logInPastNotice(page, baseURL, 'operator', 'en-US');
    await page.waitForURL(/\/home$/);
    await page.getByTestId('operator-home').waitFor();
    await expect.poll(() => page.getByTestId('operator-devices').innerText()).toMatch(/^\d+\s*Devices$/);
    expect(await page.getByTestId('home-counts').count()).toBe(0);
    // money in the edition's currency, even when nothing was sold yet today; and no customer's VIP tag
    await expect.poll(() => page.getByTestId('operator-revenue').innerText()).toMatch(/^¥\d[\d,]*\.\d\d\s/);
    expect(await page.getByTestId('vip-badge').count()).toBe(0);
    await shot(page, 'menus-operator-home');
  });
});

/** The menu's and the home page's labels. */
const LABELS = '.jc-menu-label, .jc-menu-group-title, .jc-home-count-label, .jc-home-tile-label, .jc-home-card-title, .jc-home-link-name';

describe('long words', () => {
  it.each([
    ['alice', 'ru-RU', 1280],
    ['alice', 'ru-RU', 375],
    ['operator', 'ru-RU', 1280],
    ['operator', 'ru-RU', 375],
    ['operator', 'en-US', 375],
    ['operator', 'en-US', 1280],
    ['acme', 'de-DE', 1280],
  ])('%s in %s at %i px: no word of the header, menu or tiles is cut or spills out', async (user, language, width) => {
    await page.setViewportSize({ width, height: 900 });
    await logInPastNotice(page, baseURL, user, language);
    await page.waitForURL(/\/home$/);
    await page.locator('[data-testid="home-page"], [data-testid="operator-home"]').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
    // A box whose text is wider than the box itself has spilled a word out of it (or cut it).
    const spilled = await page.evaluate(
      (labels) =>
        [...document.querySelectorAll<HTMLElement>(`.jc-header *, ${labels}`)]
          .filter((el) => el.children.length === 0 && (el.textContent ?? '').trim() && getComputedStyle(el).overflow !== 'hidden')
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => `${el.className}: ${el.textContent}`),
      LABELS,
    );
    await shot(page, `menus-home-${user}-${language}-${width}`);
    expect(spilled).toEqual([]);
    // nor is one split over two lines
    expect(await brokenWords(page, `.jc-header, ${LABELS}`)).toEqual([]);
    if (width === 375) {
      await page.getByTestId('menu-toggle').click();
      await page.locator('.jc-menu-drawer').waitFor();
      await page.waitForTimeout(400);
      await shot(page, `menus-drawer-${user}-${language}-${width}`);
    }
  });
});
