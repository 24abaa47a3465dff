/**
 * White-label platforms and their payment configuration (/customized/list) in a real browser
 * against `coldchain serve` with demo data. The administrator opens camp 1's WeChat Pay (the demo
 * platform demo.localhost), gives it its own merchant account: app ID, merchant ID and a 32-character
 * API key, which afterwards shows only as "set, ending in ••••" and its last four characters, also
 * after a reload; then gives it up for the console's configuration after the confirmation. In
 * English on a desktop, then the page and the drawer in Russian on a desktop and on a 375 px phone
 * (no sideways scroll). The suites share one database: whatever this one saves is deleted after
 * it, even when it fails. Screenshots go to var/screenshots/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const CAMP = 1;
const PROVIDER = 'wechat';
const API_KEY = 'e2eCampKey0123456789abcdefW9x7Q2'; // 32 characters
const CONFIG = `camp=${CAMP}&provider=${PROVIDER}`;

type Answer<T> = { code: number; msg: string; data: T };

function call<T>(method: string, path: string): Promise<Answer<T>> {
  return asUser(baseURL, 'admin', 'en-US', async (headers) => {
    const reply = await fetch(`${baseURL}/api/payment/PayPdConfig/${path}`, { method, headers });
    return (await reply.json()) as Answer<T>;
  });
}

/** Whether camp 1 had its own WeChat Pay configuration before the suite: one it did not make is left alone. */
let ownBefore = true;

beforeAll(async () => {
  const config = await call<{ own: boolean }>('GET', `selectByCamp?${CONFIG}`);
  expect(config.code, JSON.stringify(config)).toBe(0);
  ownBefore = config.data.own;
});

afterAll(async () => {
  if (!ownBefore) await call('DELETE', `delete?${CONFIG}`);
});

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
  // the drawer lies over the page, outside its width: it must not scroll sideways either
  const drawer = page.locator('.jc-pf-drawer');
  if (await drawer.count()) {
    expect(await drawer.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  }
}

/** Opens the platforms page and camp 1's WeChat Pay, the drawer's form once read. */
async function openConfig(page: Page) {
  await page.goto(`${baseURL}/customized/list`);
  await page.getByTestId('platforms-page').waitFor();
  await page.locator(`[data-testid="pf-camp"][data-camp="${CAMP}"]`).waitFor();
  await page.getByTestId(`pf-open-${CAMP}-${PROVIDER}`).click();
  await page.getByTestId('pc-form').waitFor();
}

describe('platform payments', () => {
  it("gives camp 1 its own WeChat Pay account, keeps the key secret, then uses the console's again (en-US, 1280 px)", async () => {
    expect(ownBefore, 'camp 1 starts with the console\'s WeChat Pay configuration').toBe(false);
    const { page } = session;
    const strings = readLocale('platforms/locales', 'en-US');
    const keyState = strings.secret.set.replace('{{last4}}', API_KEY.slice(-4));
    await page.setViewportSize({ width: 1280, height: 900 });
    await logInPastNotice(page, baseURL, 'admin', 'en-US');

    await page.goto(`${baseURL}/customized/list`);
    const camp = page.locator(`[data-testid="pf-camp"][data-camp="${CAMP}"]`);
    await camp.waitFor();
    expect(await camp.getByTestId('pf-platform').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('demo.localhost')]));
    expect(await page.getByTestId(`pf-status-${CAMP}-${PROVIDER}`).textContent()).toBe(strings.status.console);
    await shot(page, 'platform-payments-list-en-US-1280');

    await page.getByTestId(`pf-open-${CAMP}-${PROVIDER}`).click();
    await page.getByTestId('pc-form').waitFor();
    expect(await page.getByTestId('pc-uses-console').isVisible()).toBe(true);
    expect(await page.getByTestId('pc-secret-apiKey').textContent()).toBe(strings.secret.notSet);
    expect(await page.getByTestId('pc-notify-url').inputValue()).toMatch(new RegExp(`/${PROVIDER}/${CAMP}$`));
    await page.getByTestId('pc-field-appId').fill('wxcamp0001');
    await page.getByTestId('pc-field-mchId').fill('1900000201');
    await page.getByTestId('pc-field-apiKey').fill(API_KEY);
    await shot(page, 'platform-payments-form-en-US-1280');

    const saved = page.waitForResponse((reply) => reply.url().includes('/PayPdConfig/update'));
    await page.getByTestId('pc-save').click();
    const answer = (await (await saved).json()) as Answer<{ own: boolean; fields: { name: string; value?: string; last4?: string | null }[] }>;
    expect(answer.code, JSON.stringify(answer)).toBe(0);
    expect(answer.data.own).toBe(true);
    // the key never comes back: only its last four characters
    expect(JSON.stringify(answer.data)).not.toContain(API_KEY);
    await expect.poll(() => page.getByTestId('pc-secret-apiKey').textContent()).toBe(keyState);
    expect(await page.getByTestId('pc-field-apiKey').inputValue()).toBe('');
    expect(await page.getByTestId('pc-own').getAttribute('data-own')).toBe('true');
    await expect.poll(() => page.getByTestId(`pf-status-${CAMP}-${PROVIDER}`).getAttribute('data-own')).toBe('true');
    await shot(page, 'platform-payments-saved-en-US-1280');

    await page.reload();
    await openConfig(page);
    expect(await page.getByTestId('pc-secret-apiKey').textContent()).toBe(keyState);
    expect(await page.getByTestId('pc-field-appId').inputValue()).toBe('wxcamp0001');
    expect(await page.getByTestId('pc-field-mchId').inputValue()).toBe('1900000201');
    expect(await page.getByTestId(`pf-status-${CAMP}-${PROVIDER}`).textContent()).toBe(strings.status.own);

    await page.getByTestId('pc-use-console').click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.getByTestId('pc-use-console-confirm').textContent()).toBe(strings.useConsole.confirm
      .replace('{{provider}}', strings.provider.wechat).replace('{{camp}}', strings.camp.numbered.replace('{{camp}}', String(CAMP))));
    await shot(page, 'platform-payments-use-console-en-US-1280');
    const deleted = page.waitForResponse((reply) => reply.url().includes('/PayPdConfig/delete'));
    await confirm.getByRole('button', { name: strings.useConsole.confirmButton }).click();
    expect(((await (await deleted).json()) as Answer<{ own: boolean }>).data.own).toBe(false);
    await page.getByTestId('pc-uses-console').waitFor();
    expect(await page.getByTestId('pc-secret-apiKey').textContent()).toBe(strings.secret.notSet);
    await expect.poll(() => page.getByTestId(`pf-status-${CAMP}-${PROVIDER}`).getAttribute('data-own')).toBe('false');
    expect((await call<{ own: boolean }>('GET', `selectByCamp?${CONFIG}`)).data.own).toBe(false);
  });

  for (const width of [1280, 375]) {
    it(`reads the platforms and a configuration in Russian (ru-RU, ${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('platforms/locales', 'ru-RU');
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'admin', 'ru-RU');
      await page.goto(`${baseURL}/customized/list`);
      await page.locator(`[data-testid="pf-camp"][data-camp="${CAMP}"]`).waitFor();
      expect(await page.getByTestId('pf-camps').locator('th').first().textContent()).toBe(strings.column.camp);
      await noSidewaysScroll(page);
      await shot(page, `platform-payments-list-ru-RU-${width}`);

      await page.getByTestId(`pf-open-${CAMP}-${PROVIDER}`).click();
      await page.getByTestId('pc-form').waitFor();
      expect(await page.getByTestId('pc-notify-url').inputValue()).toMatch(new RegExp(`/${PROVIDER}/${CAMP}$`));
      await noSidewaysScroll(page);
      await shot(page, `platform-payments-form-ru-RU-${width}`);
      await page.getByTestId('pc-field-mchKey').scrollIntoViewIfNeeded();
      await noSidewaysScroll(page);
      await shot(page, `platform-payments-form-keys-ru-RU-${width}`);
    });
  }
});
