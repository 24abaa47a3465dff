/**
 * Coupons and recharge cards in a real browser against `coldchain serve` with demo data: the
 * operator issues a coupon batch and a card batch (through the API), alice enters the coupon in the
 * paying drawer (the total drops by it), pays by the development QR code, redeems a card for the
 * device from the recharge drawer, and finds both in her activity centre; the operator sees the
 * coupon used on the coupons tab of /service/package. In English at 1280 px and in Russian at 375 px.
 * Screenshots go to var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const DEVICE = 'Cold room A logger';

interface Issued {
  coupon: string;
  card: { cardNumber: string; secret: string };
  deviceId: number;
}

async function issue(language: string): Promise<Issued> {
  const deviceId = await asUser(baseURL, 'alice', language, async (headers) => {
    const page = await fetch(`${baseURL}/api/device/Device/page`, { method: 'POST', headers,
      body: JSON.stringify({ start: 1, pageSize: 50, deviceName: DEVICE }) });
    const rows = ((await page.json()) as { data: { data: { deviceId: number; deviceName: string }[] } }).data.data;
    return rows.find((row) => row.deviceName === DEVICE)!.deviceId;
  });
  const levelId = await asUser(baseURL, 'alice', language, async (headers) => {
    const reply = await fetch(`${baseURL}/api/payment/PayServicePackages/selectLevelList?deviceId=${deviceId}`, { headers });
    return ((await reply.json()) as { data: { levelId: number; current: boolean }[] }).data.find((lv) => lv.current)!.levelId;
  });
  const now = Date.now();
  const span = { startTime: new Date(now - 86_400_000).toISOString(), endTime: new Date(now + 30 * 86_400_000).toISOString() };
  return asUser(baseURL, 'operator', language, async (headers) => {
    const batch = await fetch(`${baseURL}/api/payment/activity/PayCoupon/createCoupon`, { method: 'POST', headers,
      body: JSON.stringify({ prefix: 'E2', count: 10, couponType: 1, amount: 2000, remark: 'e2e spring', ...span }) });
    const batchId = ((await batch.json()) as { data: { id: number } }).data.id;
    const codes = await fetch(`${baseURL}/api/payment/activity/PayCoupon/selectCouponCodeList`, { method: 'POST', headers,
      body: JSON.stringify({ batchId }) });
    const coupon = ((await codes.json()) as { data: { data: { couponCode: string }[] } }).data.data[0]!.couponCode;
    const cards = await fetch(`${baseURL}/api/payment/activity/PayCardSecret/createCardSecret`, { method: 'POST', headers,
      body: JSON.stringify({ prefix: 'RC', count: 10, levelId, timeLength: 6, remark: 'e2e dealer', ...span }) });
    const card = ((await cards.json()) as { data: { cards: { cardNumber: string; secret: string }[] } }).data.cards[0]!;
    return { coupon, card, deviceId };
  });
}

const used: Record<string, Issued> = {};

/** How far the widest table runs past its frame: a table a phone has to scroll sideways. */
function sideways(page: typeof session.page) {
  return page.evaluate(() => Math.max(0, ...[...document.querySelectorAll('.jc-vch-table-wrap')]
    .map((wrap) => wrap.scrollWidth - wrap.clientWidth)));
}

describe('coupons and recharge cards', () => {
  for (const [language, width] of [['en-US', 1280], ['ru-RU', 375]] as const) {
    it(`pays with a coupon and redeems a card (${language}, ${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('vouchers/locales', language);
      const issued = await issue(language);
      used[language] = issued;
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'alice', language);
      await page.goto(`${baseURL}/consumer/recharge?deviceIds=${issued.deviceId}`);
      await page.getByTestId('level-cards').waitFor();
      const cards = page.getByTestId('level-card');
      await expect.poll(() => cards.count()).toBe(3);
      await cards.nth(2).getByTestId('level-button').click();
      await page.getByTestId('payment-qr').waitFor({ timeout: 15_000 });
      const total = page.getByTestId('payment-total');
      const before = await total.innerText();

      await page.getByTestId('coupon-code').fill(issued.coupon.toLowerCase());
      await page.getByTestId('coupon-apply').click();
      await page.getByTestId('coupon-applied').waitFor();
      await expect.poll(() => total.innerText()).not.toBe(before);
      await page.getByTestId('payment-qr').waitFor({ timeout: 15_000 });
      await shot(page, `vouchers-coupon-${language}-${width}`);
      const figure = (text: string) => Number(text.replace(/[^\d]/g, ''));
      expect(figure(before) - figure(await total.innerText())).toBe(20);
      const link = new URL((await page.getByTestId('payment-qr').getAttribute('data-pay-code')) ?? '');
      const paid = await page.request.get(`${baseURL}${link.pathname}${link.search}`);
      expect(paid.ok()).toBe(true);
      await page.getByTestId('paying-drawer').waitFor({ state: 'detached', timeout: 15_000 });

      const expiry = page.getByTestId('header-expiry');
      const expiresBefore = await expiry.innerText();
      await page.getByTestId('redeem-card').click();
      await page.getByTestId('redeem-number').fill(issued.card.cardNumber);
      await page.getByTestId('redeem-secret').fill('WRONGSECRET');
      await page.getByTestId('redeem-submit').click();
      await page.getByTestId('redeem-form').locator('[class*="form-group"]').filter({ has: page.getByTestId('redeem-secret') })
        .locator('[class*="form-helper-text"]').waitFor();
      await shot(page, `vouchers-redeem-refused-${language}-${width}`);
      await page.getByTestId('redeem-secret').fill(issued.card.secret);
      await page.getByTestId('redeem-submit').click();
      await page.getByTestId('redeem-form').waitFor({ state: 'detached' });
      await expect.poll(() => expiry.innerText()).not.toBe(expiresBefore);

      await page.goto(`${baseURL}/activities/list?tab=coupons`);
      await page.getByTestId('activities-page').waitFor();
      const coupon = page.getByTestId('mine-row').filter({ hasText: issued.coupon });
      await coupon.waitFor();
      await expect.poll(() => coupon.innerText()).toContain(strings.state['3']);
      await shot(page, `vouchers-my-coupons-${language}-${width}`);
      await page.goto(`${baseURL}/activities/list?tab=cards`);
      await page.getByTestId('mine-row').filter({ hasText: issued.card.cardNumber }).waitFor();
      await shot(page, `vouchers-my-cards-${language}-${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      if (width === 375) expect(await sideways(page)).toBeLessThanOrEqual(0);

      // the activity centre's picker asks the server for the devices whose name holds what was typed
      await page.getByTestId('redeem-card').click();
      await page.getByTestId('redeem-device-search').fill('Cold room A');
      const picker = page.getByTestId('redeem-device');
      await expect.poll(async () => picker.locator('option').allInnerTexts())
        .toEqual([strings.redeem.chooseDevice, expect.stringContaining('Cold room A logger')]);
      await shot(page, `vouchers-redeem-search-${language}-${width}`);
      await page.keyboard.press('Escape');
    });

    it(`shows the operator the coupon alice used (${language}, ${width} px)`, async () => {
      const { page } = session;
      const issued = used[language]!;
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'operator', language);
      await page.goto(`${baseURL}/service/package?tab=coupons`);
      await page.getByTestId('vouchers-coupons').waitFor();
      await page.getByTestId('batch-row').first().click();
      await page.getByTestId('item-row').filter({ hasText: issued.coupon }).filter({ hasText: 'alice' }).waitFor();
      await shot(page, `vouchers-operator-coupons-${language}-${width}`);
      if (width === 375) expect(await sideways(page)).toBeLessThanOrEqual(0); // a phone reads batches and codes as cards
      await page.getByTestId('issue-coupons').click();
      await page.getByTestId('batch-form-coupons').waitFor();
      await shot(page, `vouchers-operator-issue-${language}-${width}`);
      await page.keyboard.press('Escape');
      await page.goto(`${baseURL}/service/package?tab=cards`);
      await page.getByTestId('vouchers-cards').waitFor();
      await page.getByTestId('batch-row').first().click();
      await page.getByTestId('item-row').first().waitFor();
      await shot(page, `vouchers-operator-cards-${language}-${width}`);
      if (width === 375) expect(await sideways(page)).toBeLessThanOrEqual(0);
    });
  }
});
