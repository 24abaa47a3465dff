/**
 * The order back office (/operation/recharge, issue 19) in a real browser against `coldchain serve`
 * with demo data and the development payment gateway: alice places a WeChat order (through the API,
 * as her paying drawer does); the operator finds it by its code, opens it whole, and tries to handle
 * it manually: the form asks for a reason first, then the provider is asked and says the order is
 * not paid (the development gateway never pays unseen), which the dialog says, nothing changed.
 * Then alice pays another order (her phone opens the gateway's signed pay link) and the operator
 * refunds half of it with a reason: the order is partially refunded and its refund says the
 * device's expiry moved back. In English on a desktop and in Russian on a 375 px phone.
 * Screenshots go to var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { asUser, browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();

type Placed = { orderId: number; orderCode: string; payQrCode: string };

/** alice orders a year of her cold room A's current level, paying by WeChat Pay. */
function placeOrder(language: string): Promise<Placed> {
  return asUser(baseURL, 'alice', language, async (headers) => {
    const call = async (method: string, path: string, body?: unknown, query?: Record<string, string | number>) => {
      const search = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : '';
      const reply = await fetch(`${baseURL}/api${path}${search}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
      const json = (await reply.json()) as { code: number; data: any };
      expect(json.code, `${path}: ${JSON.stringify(json)}`).toBe(0);
      return json.data;
    };
    const devices = await call('POST', '/device/Device/page', { start: 1, pageSize: 10, deviceGuid: 'RCW360A0000001' });
    const deviceId = devices.data[0].deviceId as number;
    const levels = (await call('GET', '/payment/PayServicePackages/selectLevelList', undefined, { deviceId })) as any[];
    const level = levels.find((l) => l.current);
    const years = (await call('GET', '/payment/PayServiceLevelYear/selectListByDomain', undefined,
      { deviceId, levelId: level.levelId, packageId: level.packageId })).levelYearList;
    return call('POST', '/payment/PayOrder/createServiceOrder', {
      deviceId, levelId: level.levelId, levelYearId: years[0].id, servicePackageId: level.packageId, payType: 1,
      serviceFee: years[0].serviceFee, totalFee: years[0].price,
    }) as Promise<Placed>;
  });
}

/** alice's phone opens the order's QR code: the development gateway's pay link, on the test server. */
async function pay(placed: Placed): Promise<void> {
  const link = new URL(placed.payQrCode);
  const paid = await fetch(`${baseURL}${link.pathname}${link.search}`);
  expect(paid.ok, await paid.text()).toBe(true);
}

/** The operator's list, searched for one order, which is opened whole. */
async function openOrder(page: Page, width: number, orderCode: string): Promise<Locator> {
  await page.goto(`${baseURL}/operation/recharge`);
  const item = page.getByTestId(width < 640 ? 'od-card' : 'od-row');
  await item.first().waitFor();
  await page.getByTestId('od-orderCode').fill(orderCode);
  await page.getByTestId('od-search-submit').click();
  await expect.poll(() => item.count()).toBe(1);
  await expect.poll(() => item.first().textContent()).toContain(orderCode);
  await item.first().click();
  const drawer = page.getByTestId('od-drawer');
  await drawer.getByTestId('od-lines').waitFor();
  return drawer;
}

/** The element lies within the viewport's width: nothing of it is cut off on a phone. */
async function fitsWidth(target: Locator, width: number): Promise<void> {
  const box = await target.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

describe('order back office', () => {
  for (const [language, width] of [['en-US', 1280], ['ru-RU', 375]] as const) {
    it(`finds an order, reads it whole and is told the provider says it is unpaid (${language}, ${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('orderdesk/locales', language);
      const placed = await placeOrder(language);
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'operator', language);
      await page.goto(`${baseURL}/operation/recharge`);
      const item = page.getByTestId(width < 640 ? 'od-card' : 'od-row');
      await item.first().waitFor();
      await shot(page, `orders-backoffice-list-${language}-${width}`);

      await page.getByTestId('od-orderCode').fill(placed.orderCode);
      await page.getByTestId('od-search-submit').click();
      await expect.poll(() => item.count()).toBe(1);
      await expect.poll(() => item.first().textContent()).toContain(placed.orderCode);
      expect(await item.first().textContent()).toContain(strings.payStatus['1']);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, `orders-backoffice-found-${language}-${width}`);

      await item.first().click();
      const drawer = page.getByTestId('od-drawer');
      await drawer.getByTestId('od-lines').waitFor();
      expect(await drawer.textContent()).toContain('RCW360A0000001');
      expect(await drawer.getByTestId('od-payment-ref').textContent()).toContain(`dev-${placed.orderCode}`);
      await shot(page, `orders-backoffice-detail-${language}-${width}`);

      await page.getByTestId('od-handle').click();
      await page.getByTestId('od-handle-submit').click();
      await page.getByText(strings.handle.required).first().waitFor();
      await page.getByTestId('od-reason').fill(language === 'en-US' ? 'The customer sent a WeChat receipt' : 'Клиент прислал чек WeChat');
      await page.getByTestId('od-handle-submit').click();
      const refusal = page.getByTestId('od-refusal');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain(placed.orderCode);
      await shot(page, `orders-backoffice-refused-${language}-${width}`);
    });

    it(`refunds half of a paid order with a reason: partially refunded, the expiry moved back (${language}, ${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('orderdesk/locales', language);
      const placed = await placeOrder(language);
      await pay(placed);
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'operator', language);
      const drawer = await openOrder(page, width, placed.orderCode);
      expect(await drawer.getByTestId('od-status').first().textContent()).toBe(strings.payStatus['2']);

      await page.getByTestId('od-refund').click();
      const amount = page.getByTestId('od-refund-amount');
      await expect.poll(() => amount.inputValue()).toMatch(/^\d+\.\d{2}$/);
      // all that is left by default: the order's price; half of it is asked for
      const [units, hundredths] = (await amount.inputValue()).split('.') as [string, string];
      const half = Math.floor((Number(units) * 100 + Number(hundredths)) / 2);
      const previewed = page.waitForResponse((reply) => reply.url().endsWith('/PayRefund/preview')
        && (reply.request().postDataJSON() as { amount?: number }).amount === half);
      await amount.fill(`${Math.floor(half / 100)}.${String(half % 100).padStart(2, '0')}`);
      await previewed;
      const submit = page.getByTestId('od-refund-submit');
      await expect.poll(() => submit.isEnabled()).toBe(true);
      const preview = page.getByTestId('od-refund-preview');
      expect(await preview.getByTestId('od-takeback').count()).toBe(1); // the one device
      expect(await page.getByTestId('od-refund-approval').count()).toBe(0); // half a year is below the approval amount
      await page.getByTestId('od-refund-reason').fill(language === 'en-US' ? 'The customer moved the room after six months'
        : 'Клиент закрыл камеру через полгода');
      await fitsWidth(page.getByTestId('od-refund-form'), width);
      await shot(page, `orders-backoffice-refund-${language}-${width}`);
      await submit.click();
      await page.getByTestId('od-refund-form').waitFor({ state: 'detached' });

      const refund = drawer.getByTestId('od-refund');
      await refund.waitFor();
      await expect.poll(() => drawer.getByTestId('od-status').first().textContent()).toBe(strings.payStatus['5']);
      expect(await refund.getByTestId('od-refund-status').textContent()).toBe(strings.refundStatus['3']);
      const expiry = refund.getByTestId('od-takeback-expiry').first();
      const before = Date.parse((await expiry.getAttribute('data-before')) ?? '');
      const after = Date.parse((await expiry.getAttribute('data-after')) ?? '');
      expect(after).toBeLessThan(before);
      await refund.scrollIntoViewIfNeeded();
      await fitsWidth(refund, width);
      await shot(page, `orders-backoffice-refunded-${language}-${width}`);
    });
  }
});
