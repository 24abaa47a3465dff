/**
 * The calibration lab in a real browser against `coldchain serve` with demo data: calibadmin logs
 * in at /calibration/admin/login, finds an application received from the customer (in English the
 * demo's, alice's cold-room logger; in Russian a quick order it took at the counter, completed on
 * the quick orders page), starts its calibration, enters the logger's results with an adjustment
 * (as found and as left), issues the certificate, and corrects it: version 2 is issued with the
 * reason, version 1 stays, marked superseded. A customer's account is told it is not a lab account.
 * In English on a desktop and in Russian on a 375 px phone; screenshots go to var/screenshots/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, preferLanguage, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const DEMO_APPLICATION = 'CAL20261120DEMQ2345';
const C = `${baseURL}/api/calibration/Application`;

interface Made { applicationId: number; applicationNumber: string }

async function call(headers: Record<string, string>, path: string, body: unknown): Promise<Made> {
  const reply = await fetch(`${C}/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = (await reply.json()) as { code: number; data: Made; msg: string };
  if (answer.code !== 0) throw new Error(`${path}: ${answer.msg}`);
  return answer.data;
}

/** A quick order taken at the counter for a typed logger, paid there and received: its number. */
function receivedQuickOrder(language: string): Promise<string> {
  return asUser(baseURL, 'calibadmin', language, async (headers) => {
    const prices = (await (await fetch(`${baseURL}/api/calibration/PriceConf/get/price`, { headers })).json()).data as
      { deviceTypeId: number; service: number }[];
    const typeId = prices.find((p) => p.service === 1)!.deviceTypeId;
    const made = await call(headers, 'applyQuickOrder', {
      contactName: 'Ivan', contactPhone: '+7 495 000 00 00',
      devices: [{ service: 1, deviceTypeId: typeId, model: 'RCW-360', serialNumber: `E2E-${Date.now()}` }],
    });
    await call(headers, 'applicationStatus', { applicationId: made.applicationId, status: 2 });
    await call(headers, 'trackingNumber', { applicationId: made.applicationId, trackingNumber: 'CDEK-20261127', outbound: false });
    await call(headers, 'applicationStatus', { applicationId: made.applicationId, status: 4 });
    return made.applicationNumber;
  });
}

/** The login of the lab's console, the account's saved language set first (it wins at login). */
async function labLogIn(page: Page, user: string, language: string): Promise<void> {
  await asUser(baseURL, user, language, (headers) =>
    fetch(`${baseURL}/api/base/BaseAccount/modifyPreferences`, { method: 'POST', headers, body: JSON.stringify({ language }) }));
  await preferLanguage(page, language);
  await page.goto(`${baseURL}/calibration/admin/login`);
  await page.fill('#cl-userName', user);
  await page.fill('#cl-accountPassword', 'Coldchain#2026');
  await page.getByTestId('lab-login-submit').click();
}

const noOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

function daysAgo(days: number): string {
  const day = new Date(Date.now() - days * 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

describe('the calibration lab', () => {
  for (const [language, width] of [['en-US', 1280], ['ru-RU', 375]] as const) {
    it(`takes a received application through calibration to a corrected certificate (${language}, ${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('calibrationlab/locales', language);
      await page.setViewportSize({ width, height: 900 });
      const number = language === 'en-US' ? DEMO_APPLICATION : await receivedQuickOrder(language);

      await labLogIn(page, 'calibadmin', language);
      await shot(page, `calibration-lab-login-${language}-${width}`);
      await page.waitForURL((url) => url.pathname === '/admin/order/list');
      await page.getByTestId('lab-orders').waitFor();
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);

      // the price list sits beside the applications
      await page.getByRole('tab', { name: strings.prices.tab }).click();
      await page.getByTestId('price-row').first().waitFor();
      await shot(page, `calibration-lab-prices-${language}-${width}`);
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
      await page.getByRole('tab', { name: strings.list.ordersTab }).click();

      if (language === 'ru-RU') {
        // the counter's order lacks its customer: completed on the quick orders page, from the header's link
        await page.getByTestId('calibration-quick-orders').click();
        const quick = page.getByTestId('order-row').and(page.locator(`[data-number="${number}"]`));
        await quick.getByTestId('quick-complete').click();
        await page.getByTestId('cl-customerName').fill('ООО «Холод»');
        await page.getByTestId('cl-returnAddress').fill('Москва, ул. Льва Толстого, 16');
        await shot(page, `calibration-lab-quick-${language}-${width}`);
        await page.getByTestId('quick-save').click();
        await quick.getByText(strings.quick.handled).waitFor();
        expect(await noOverflow(page)).toBeLessThanOrEqual(0);
        await page.getByTestId('calibration-orders').click();
      }

      await page.getByTestId('number-filter').fill(number.slice(-8));
      await page.getByTestId('number-search').click();
      const row = page.getByTestId('order-row').and(page.locator(`[data-number="${number}"]`));
      await row.getByText(strings.status['4']).waitFor();
      await shot(page, `calibration-lab-list-${language}-${width}`);
      await row.getByTestId('order-open').click();

      const detail = page.getByTestId('order-detail');
      await detail.getByTestId('order-number').filter({ hasText: number }).waitFor();
      await shot(page, `calibration-lab-detail-${language}-${width}`);
      await page.getByTestId('status-to-5').click();
      await page.locator('[data-testid="order-detail"][data-status="5"]').waitFor();

      const device = page.getByTestId('device-certificate').first();
      await device.getByTestId('certificate-enter').click();
      const fill = (id: string, value: string) => device.getByTestId(`cl-${id}`).fill(value);
      await fill('labName', 'Coldchain Calibration Lab');
      if (language === 'ru-RU') await expect(device.getByTestId('cl-customerName').inputValue()).resolves.toBe('ООО «Холод»');
      await fill('itemType', language === 'en-US' ? 'Temperature data logger' : 'Регистратор температуры');
      await fill('conditionOnReceipt', language === 'en-US' ? 'Intact, probe attached' : 'Без повреждений');
      await fill('receivedOn', daysAgo(2));
      await fill('calibratedOn', daysAgo(1));
      await fill('method', 'CC-CAL-07');
      await fill('temperature', '21.5');
      await fill('humidity', '45');
      await fill('asFound-0-reference', '-20');
      await fill('asFound-0-reading', '-19.2');
      await fill('asFound-0-uncertainty', '0.1');
      await fill('asFound-0-tolerance', '0.5');
      await expect(device.getByTestId('point-error-asFound-0').textContent()).resolves.toBe('0.8');
      await device.getByText(strings.result.adjusted).click();
      await fill('asLeft-0-reference', '-20');
      await fill('asLeft-0-reading', '-20.05');
      await fill('asLeft-0-uncertainty', '0.1');
      await fill('asLeft-0-tolerance', '0.5');
      await fill('authorisedName', 'Wang Lei');
      await fill('authorisedRole', language === 'en-US' ? 'Technical manager' : 'Технический руководитель');
      await shot(page, `calibration-lab-results-${language}-${width}`);
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
      await device.getByTestId('result-save').click();
      await device.getByTestId('certificate-state').filter({ hasText: strings.certificate.draft }).waitFor();

      await device.getByTestId('certificate-issue').click();
      const first = device.locator('[data-testid="certificate-version"][data-version="1"]');
      await first.and(page.locator('[data-status="issued"]')).waitFor();
      await shot(page, `calibration-lab-issued-${language}-${width}`);

      await device.getByTestId('certificate-correct').click();
      await fill('asLeft-0-reading', '-20.03');
      await device.getByTestId('correct-reason').fill(language === 'en-US' ? 'As-left reading mistyped' : 'Опечатка в показании');
      await device.getByTestId('result-save').click();
      const second = device.locator('[data-testid="certificate-version"][data-version="2"]');
      await second.and(page.locator('[data-status="issued"]')).waitFor();
      await first.and(page.locator('[data-status="superseded"]')).getByText(strings.certificate.superseded).waitFor();
      await second.getByText(language === 'en-US' ? 'As-left reading mistyped' : 'Опечатка в показании').waitFor();
      await shot(page, `calibration-lab-corrected-${language}-${width}`);
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);

      // every device certified: the devices go back with their parcel's number
      await page.getByTestId('outbound-tracking').fill('SF2026112701');
      await page.getByTestId('outbound-save').click();
      await page.getByText(strings.detail.trackingSaved).first().waitFor();
      await page.getByTestId('status-to-6').click();
      await page.locator('[data-testid="order-detail"][data-status="6"]').waitFor();
      await expect(page.getByTestId('order-status').first().textContent()).resolves.toBe(strings.status['6']);
      expect(await page.getByTestId('status-cancel').count()).toBe(0);
    });
  }

  it('tells a customer who logs in at the lab\'s login that the account is not a lab account', async () => {
    const { page } = session;
    const strings = readLocale('calibrationlab/locales', 'en-US');
    await labLogIn(page, 'alice', 'en-US');
    await page.getByTestId('not-lab-account').getByText(strings.login.notLab).waitFor();
    await page.goto(`${baseURL}/admin/order/list`);
    await page.waitForURL((url) => url.pathname === '/calibration/admin/login');  // signed out again: the lab's login
  });
});
