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
import { browserSession, logInPastNotice, readLocale, shot } from './browser';
import { pay, placeOrder } from './orders';

const baseURL = inject('baseURL');
const session = browserSession();

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
      const placed = await placeOrder(baseURL, language);
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
      const placed = await placeOrder(baseURL, language);
      await pay(baseURL, placed);
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
