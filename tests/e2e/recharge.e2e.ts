/**
 * Paying for a device's service in a real browser against `coldchain serve` with demo data (the
 * test server's development payment gateway: its QR code is a signed pay link, which the test
 * opens as a payer's phone would). Screenshots go to var/screenshots/.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { asUser, brokenWords, browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const en = readLocale('recharge/locales', 'en-US').recharge;
const alerts = readLocale('recharge/alertsLocales', 'en-US').rechargeAlerts;
const levelChange = readLocale('recharge/levelChangeLocales', 'en-US').levelChange;
const agreement = {
  title: alerts.unAgreement.title as string,
  keep: alerts.unAgreement.keep as string,
  cancelAutoRenew: alerts.service.cancelAutoRenew as string,
  cancelled: alerts.service.cancelled as string,
  autoRenewOn: alerts.service.autoRenewOn as string,
};
/** The server's job signs a paid order's agreement every minute (entrypoints/jobs/catalogue.py). */
const SIGNING_WAIT_MS = 150_000;

const session = browserSession();
let page: Page;
beforeEach(() => {
  page = session.page;
});

async function openRecharge(deviceName: string): Promise<void> {
  await page.goto(`${baseURL}/device/list`);
  const row = page.locator(`[data-testid="device-row"][data-device-name="${deviceName}"]`);
  await row.locator('a[href*="/consumer/recharge?deviceIds="]').click();
  await page.getByTestId('level-cards').waitFor();
}

describe('recharge', () => {
  it('renews a device by scanning the WeChat QR code, once', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await openRecharge('Cold room A logger');
    const before = await page.getByTestId('header-expiry').innerText();
    const cards = page.getByTestId('level-card');
    await expect.poll(() => cards.count()).toBe(3);
    // the free level cannot be bought: its button does nothing
    await expect.poll(() => cards.nth(0).getByTestId('level-button').isDisabled()).toBe(true);
    await shot(page, 'e2e-recharge-drawer');

    await cards.nth(2).getByTestId('level-button').click();
    const qr = page.getByTestId('payment-qr');
    await qr.waitFor({ timeout: 15_000 });
    await shot(page, 'e2e-recharge-paying');
    const link = new URL((await qr.getAttribute('data-pay-code')) ?? '');
    // The payer's phone opens the code (on the test server's own address).
    const paid = await page.request.get(`${baseURL}${link.pathname}${link.search}`);
    expect(paid.ok()).toBe(true);

    await page.getByTestId('paying-drawer').waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => page.getByText(en.paying.paid).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('header-expiry').innerText()).not.toBe(before);
    await shot(page, 'e2e-recharge-paid');
  });

  it('asks to cancel auto-renew before another package; the device list\'s tag cancels it', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await page.goto(`${baseURL}/device/list/freezer`);
    const row = page.locator('[data-testid="device-row"][data-device-name="Pharmacy freezer"]');
    // Choosing a level on a device that renews itself opens the un-agreement modal, not the paying drawer.
    await row.locator('a[href*="/consumer/recharge?deviceIds="]').click();
    await page.getByTestId('level-cards').waitFor();
    const cards = page.getByTestId('level-card');
    await expect.poll(() => cards.count()).toBe(3);
    await cards.nth(1).getByTestId('level-button').click();
    const unAgreement = page.getByRole('dialog', { name: agreement.title });
    await unAgreement.getByTestId('current-service').waitFor();
    await shot(page, 'e2e-recharge-unagreement');
    expect(await page.getByTestId('paying-drawer').count()).toBe(0);
    await unAgreement.getByRole('button', { name: agreement.keep }).click();
    await unAgreement.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.getByTestId('level-cards').waitFor({ state: 'detached' });

    // The tag on the list opens the current service; cancelling there is confirmed, then the tag goes.
    await row.getByTestId('auto-renew-tag').click();
    const service = page.getByTestId('current-service');
    await service.waitFor();
    await shot(page, 'e2e-recharge-current-service');
    await page.getByRole('button', { name: agreement.cancelAutoRenew }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: agreement.cancelAutoRenew }).click();
    await expect.poll(() => page.getByText(agreement.cancelled).count()).toBeGreaterThan(0);
    await expect.poll(() => row.getByTestId('auto-renew-tag').count()).toBe(0);

    // Now a level leads straight to paying: down from Professional to Basic (the catalogue's English names),
    // saying what the freezer will have.
    await row.locator('a[href*="/consumer/recharge?deviceIds="]').click();
    await page.getByTestId('level-cards').waitFor();
    await page.getByTestId('level-card').nth(1).getByTestId('level-button').click();
    await page.getByTestId('paying-drawer').waitFor();
    const qr = page.getByTestId('payment-qr');
    await qr.waitFor({ timeout: 15_000 });
    const after = page.getByTestId('level-change-after');
    await expect.poll(() => after.innerText()).toMatch(/\d{4}-\d\d-\d\d/);
    const promised = (await after.innerText()).match(/\d{4}-\d\d-\d\d/)![0];
    expect(await after.innerText()).toBe(levelChange.after.replace('{{level}}', 'Basic').replace('{{date}}', promised));
    expect(await page.getByTestId('level-change-how').innerText()).toMatch(/Professional, \d+ days?, becomes \d+ days? of Basic/);
    await shot(page, 'e2e-recharge-downgrade-promise');

    // Paid, the freezer has exactly what the drawer said.
    const link = new URL((await qr.getAttribute('data-pay-code')) ?? '');
    expect((await page.request.get(`${baseURL}${link.pathname}${link.search}`)).ok()).toBe(true);
    await page.getByTestId('paying-drawer').waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => page.getByTestId('header-expiry').locator('dd').innerText()).toBe(promised);
    expect(await page.getByTestId('header-level').locator('dd').innerText()).toBe('Basic');
    await shot(page, 'e2e-recharge-downgrade-paid');
  });

  it('renews a device automatically once paid with the switch on; the tag then shows and cancels it', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await page.goto(`${baseURL}/device/list`);
    const row = page.locator('[data-testid="device-row"][data-device-name="Cold room A logger"]');
    const recharge = row.locator('a[href*="/consumer/recharge?deviceIds="]');
    const deviceId = new URL((await recharge.getAttribute('href'))!, baseURL).searchParams.get('deviceIds')!;
    expect(await row.getByTestId('auto-renew-tag').count()).toBe(0);
    try {
      await recharge.click();
      await page.getByTestId('level-cards').waitFor();
      // Its own level again (whichever another test left it on), for the first period: one that ends.
      await page.locator('[data-testid="level-button"][data-kind="renew"]').click();
      await page.getByTestId('year-option').first().click();
      const qr = page.getByTestId('payment-qr');
      await qr.waitFor({ timeout: 15_000 });
      const option = page.getByTestId('auto-renew-option');
      expect(await page.getByTestId('auto-renew-switch').isChecked()).toBe(false);
      const renewing = page.waitForRequest((request) =>
        request.url().includes('/payment/PayOrder/createServiceOrder') && request.postDataJSON()?.autoRenew === true);
      await option.locator('label').click();
      expect((await renewing).postDataJSON()).toMatchObject({ autoRenew: true, deviceId: Number(deviceId) });
      await qr.waitFor({ timeout: 15_000 });
      await shot(page, 'e2e-recharge-auto-renew');

      // Paid with the development pay link, which also authorises the renewals.
      const link = new URL((await qr.getAttribute('data-pay-code')) ?? '');
      expect((await page.request.get(`${baseURL}${link.pathname}${link.search}`)).ok()).toBe(true);
      await page.getByTestId('paying-drawer').waitFor({ state: 'detached', timeout: 15_000 });
      await expect.poll(() => page.getByText(en.paying.autoRenew.paid).count()).toBeGreaterThan(0);

      // The server's job signs the agreement within a minute or so: then the device list shows it.
      await page.keyboard.press('Escape');
      await page.getByTestId('level-cards').waitFor({ state: 'detached' });
      await expect.poll(async () => {
        await page.reload();
        await row.waitFor();
        return row.getByTestId('auto-renew-tag').count();
      }, { timeout: SIGNING_WAIT_MS, interval: 5_000 }).toBe(1);
      expect(await row.getByTestId('auto-renew-tag').innerText()).toBe(agreement.autoRenewOn);
      await row.getByTestId('auto-renew-tag').click();
      await page.getByTestId('current-service').waitFor();
      await shot(page, 'e2e-recharge-auto-renew-on');
      await page.getByRole('button', { name: agreement.cancelAutoRenew }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: agreement.cancelAutoRenew }).click();
      await expect.poll(() => row.getByTestId('auto-renew-tag').count()).toBe(0);
    } finally {
      // The suites share the database: no agreement is left to turn the next level choice into an un-agreement.
      await asUser(baseURL, 'alice', 'en-US', (headers) =>
        fetch(`${baseURL}/api/payment/PayOrder/unAgreement?deviceId=${deviceId}`, { headers }));
    }
  }, SIGNING_WAIT_MS + 60_000);
});

/**
 * How far a drawer (`selector`), or anything in it, runs past the screen's right edge (or starts left
 * of its own left edge): a phone must see the whole drawer without scrolling sideways.
 */
function drawerOverflow(target: Page, selector: string) {
  // Against the phone's own width: a page wider than it widens what window.innerWidth reports too.
  return target.evaluate(([css, screenWidth]) => {
    const drawer = document.querySelector(css as string)!;
    const frame = drawer.getBoundingClientRect();
    const rights = [...drawer.querySelectorAll('*')].map((element) => element.getBoundingClientRect().right);
    const body = drawer.querySelector('.bp6-drawer-body')!;
    return Math.max(
      frame.right - screenWidth,
      -frame.left,
      Math.max(...rights) - frame.right,
      body.scrollWidth - body.clientWidth,
      document.documentElement.scrollWidth - screenWidth,
    );
  }, [selector, PHONE_WIDTH] as const);
}

const PHONE_WIDTH = 375;

for (const language of ['ru-RU', 'en-US'] as const) {
  describe(`the paying drawer on a 375 px phone (${language})`, () => {
    const phone = browserSession({ viewport: { width: PHONE_WIDTH, height: 812 }, isMobile: true, hasTouch: true, locale: language });

    it('fits the screen: years, what happens once paid, methods, renewal, coupon and total', async () => {
      page = phone.page;
      await logInPastNotice(page, baseURL, 'alice', language);
      // Opened by its address, as a link from elsewhere does: the page loads with the drawer (and the
      // expiry reminder's toast) at once.
      await page.goto(`${baseURL}/device/list`);
      const link = page.locator('[data-testid="device-row"][data-device-name="Cold room A logger"] a[href*="/consumer/recharge?deviceIds="]');
      await page.goto(`${baseURL}${await link.getAttribute('href')}`);
      await page.getByTestId('level-cards').waitFor();
      await page.getByTestId('expiry-reminder-open').waitFor();
      await shot(page, `e2e-recharge-drawer-${language}-375`);
      expect(await drawerOverflow(page, '.jc-recharge-drawer')).toBeLessThanOrEqual(0);
      await page.getByTestId('level-card').nth(2).getByTestId('level-button').click();
      await page.getByTestId('payment-qr').waitFor({ timeout: 15_000 });
      await page.getByTestId('level-change-how').waitFor();
      await shot(page, `e2e-recharge-paying-${language}-375`);
      expect(await drawerOverflow(page, '.jc-paying-drawer')).toBeLessThanOrEqual(0);
      // The renewal switch and what it does, whole words within the screen.
      // (centred: the expiry reminder's toast covers the bottom of the screen)
      await page.getByTestId('auto-renew-option').evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await shot(page, `e2e-recharge-auto-renew-${language}-375`);
      expect(await brokenWords(page, '.jc-auto-renew-option')).toEqual([]);
    });
  });
}
