/**
 * The console shell in a real browser against `coldchain serve` with demo data. Every step is
 * kept as a screenshot under var/screenshots/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { asUser, launch, logIn, readLocale, shot, submitLogin, watchPolicies } from './browser';

const baseURL = inject('baseURL');
const locale = (lang: string, ns: 'app' | 'errors') => {
  const folder = ns === 'app' ? 'app/locales' : 'features/errors/locales';
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../web/src/${folder}/${lang}.json`, import.meta.url)), 'utf8'));
};

let browser: Browser;
let context: BrowserContext;
let page: Page;
let policyProblems: string[];

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  policyProblems = await watchPolicies(context);
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
  expect(policyProblems).toEqual([]);
});

/** The seeded notice opens after login; tick "don't remind again" and close it. */
async function dismissNotice(p: Page): Promise<void> {
  const dialog = p.getByTestId('notice-dialog');
  await dialog.waitFor({ timeout: 10_000 });
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: /close/i }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Chooses `language` in the header's switcher and waits for the console to redraw in it. */
async function switchInHeader(p: Page, language: string): Promise<void> {
  await p.getByTestId('language-switcher').click();
  await p.locator(`[data-lang="${language}"]`).click();
  await p.waitForFunction((lang) => document.documentElement.lang === lang, language);
}

describe('the console shell', () => {
  it('sends a visitor to login and alice lands on the page she asked for', async () => {
    await page.goto(`${baseURL}/home`);
    await page.waitForURL(/\/user\/login\?redirect=%2Fhome/);
    await page.locator('#userName').waitFor();
    await shot(page, '01-login');
    await logIn(page, baseURL, 'alice');
    await page.waitForURL(/\/home$/);
    await page.getByTestId('home-page').waitFor();
    await shot(page, '02-home-with-notice');
    await dismissNotice(page);
    await expect(page.getByTestId('user-menu').textContent()).resolves.toContain('alice');
    await shot(page, '03-home');
  });

  it('opens pages as tabs and closes them from the context menu', async () => {
    await logIn(page, baseURL, 'alice');
    await dismissNotice(page);
    for (const path of ['/message/list', '/consumer/info', '/consumer/download']) {
      await page.goto(`${baseURL}${path}`);
      await page.getByTestId('tab-bar').waitFor();
    }
    const tabs = page.getByTestId('tab-bar').locator('[data-testid^="tab-"]');
    await expect(tabs.count()).resolves.toBeGreaterThanOrEqual(4);
    await shot(page, '04-tabs-open');

    await page.getByTestId('tab-consumerInfo').click({ button: 'right' });
    await page.getByTestId('tab-menu-close-right').click();
    await expect(page.getByTestId('tab-consumerDownload').count()).resolves.toBe(0);
    await page.getByTestId('tab-consumerInfo').click({ button: 'right' });
    await page.getByTestId('tab-menu-close-left').click();
    await expect(page.getByTestId('tab-messageList').count()).resolves.toBe(0);
    await shot(page, '05-tabs-closed');

    await page.getByTestId('tab-consumerInfo').click({ button: 'right' });
    await page.getByTestId('tab-menu-close-all').click();
    await expect(tabs.count()).resolves.toBe(1);
    await tabs.first().click({ button: 'right' });
    await page.getByTestId('tab-menu-close-current').click();
    await expect(tabs.count()).resolves.toBe(1); // the last tab stays
    await shot(page, '06-last-tab-stays');
  });

  it('switches to German', async () => {
    await logIn(page, baseURL, 'alice');
    await dismissNotice(page);
    await switchInHeader(page, 'de-DE');
    const german = locale('de-DE', 'app').route.home as string;
    await expect(page.getByTestId('sidebar').textContent()).resolves.toContain(german);
    // what the server wrote (the scene's name) follows too, without a reload
    await expect.poll(() => page.getByTestId('scene-selector').textContent()).toContain('Kühlkette');
    await shot(page, '07-german');
    await page.reload();
    await expect(page.getByTestId('sidebar').textContent()).resolves.toContain(german); // the choice is kept
  });

  it('keeps the language chosen in the header with the account: another browser logs in in it, notice included', async () => {
    await logIn(page, baseURL, 'alice');
    await dismissNotice(page);
    const accountLanguage = () =>
      asUser(baseURL, 'alice', 'en-US', async (headers) => {
        const info = await fetch(`${baseURL}/api/base/BaseAccount/accountInfo`, { headers });
        return ((await info.json()) as { data: { baseAccount: { language: string } } }).data.baseAccount.language;
      });
    const maintenance = { 'ru-RU': 'Плановое обслуживание', 'zh-CN': '计划维护' } as const;
    for (const language of ['ru-RU', 'zh-CN'] as const) {
      await switchInHeader(page, language);
      await expect.poll(accountLanguage).toBe(language);
      // Logged out, then in again on another browser (no choice of its own, English) at two widths.
      for (const width of [1440, 390]) {
        await context.close();
        context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, locale: 'en-US' });
        await watchPolicies(context, policyProblems);
        page = await context.newPage();
        await submitLogin(page, baseURL, 'alice');
        const dialog = page.getByTestId('notice-dialog');
        await dialog.waitFor({ timeout: 10_000 });
        await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
        await expect(dialog.textContent()).resolves.toContain(maintenance[language]);
        await expect(dialog.textContent()).resolves.not.toContain('Scheduled maintenance');
        await expect(page.locator('.jc-notice-dialog').textContent()).resolves.toContain(readLocale('dialogs/locales', language).notice.title);
        await shot(page, `07-notice-${language}-${width < 500 ? 'phone' : 'desktop'}`);
      }
      await page.getByTestId('notice-dialog').getByRole('button').last().click();
    }
  });

  it('sends the user to login once the token is revoked elsewhere', async () => {
    await logIn(page, baseURL, 'alice');
    await dismissNotice(page);
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('jc__token') ?? '{}').value as string);
    const revoked = await fetch(`${baseURL}/api/base/BaseAccount/loginOut`, { headers: { Authorization: `Bearer ${token}` } });
    expect(revoked.status).toBe(200);
    await page.goto(`${baseURL}/consumer/info`);
    await page.waitForURL(/\/user\/login/, { timeout: 15_000 });
    await shot(page, '08-revoked-token-login');
    await expect(page.evaluate(() => localStorage.getItem('jc__token'))).resolves.toBeNull();
  });

  it('lists alice\'s expired device in the expired-service dialog', async () => {
    await logIn(page, baseURL, 'alice');
    await dismissNotice(page);
    await page.getByTestId('home-tile-expired').click();
    const dialog = page.getByTestId('expired-dialog');
    await dialog.waitFor();
    await page.locator('[data-testid="expired-row"][data-device-name="Vaccine fridge logger"]').waitFor();
    await shot(page, '09-expired-dialog');
    await expect(dialog.getByTestId('batch-recharge').isDisabled()).resolves.toBe(true);
    await dialog.locator('[data-testid="expired-row"] input[type=checkbox]').first().check();
    await expect(dialog.getByTestId('batch-recharge').isDisabled()).resolves.toBe(false);
  });

  it('asks bob for his identity and industry', async () => {
    await logIn(page, baseURL, 'bob');
    const dialog = page.getByTestId('identity-dialog');
    await dialog.waitFor();
    await page.getByTestId('home-page').waitFor();
    await expect.poll(() => dialog.locator('select option').count()).toBeGreaterThan(10);
    await shot(page, '10-identity-dialog');
  });

  it('shows the 404 page, and sends unknown paths home', async () => {
    await page.goto(`${baseURL}/404`);
    await page.getByTestId('error-404').waitFor();
    const text = locale('zh-CN', 'errors').page404 as string;
    await expect(page.getByTestId('error-404').textContent()).resolves.toContain(text);
    await shot(page, '11-404');
    await page.goto(`${baseURL}/no/such/place`);
    await page.waitForURL(/\/user\/login\?redirect=%2Fhome/);
  });
});
