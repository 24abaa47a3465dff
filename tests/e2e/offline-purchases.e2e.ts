/**
 * Offline purchases and their review (/operation/offlinebuy, /operation/offlineExamine, issue 19)
 * in a real browser against `coldchain serve` with demo data. The operator records a year of
 * alice's Basic level for her two cold room loggers, paid by bank transfer: the first check finds
 * a device of acme's among them (its row in red, recording refused) and the second passes; the
 * operator cannot approve their own purchase (1134, said in the dialog). The administrator then
 * approves it on the review page after the confirmation that says two devices will be recharged,
 * and the purchase shows both recharged, each expiry moved. The operator's part in English on a
 * desktop, the administrator's in Russian on a 375 px phone. Screenshots go to var/screenshots/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const ALICE = ['RCW360A0000001', 'RCW360A0000002'];
const ACMES = 'RCW360B0000001';

/** The purchase the operator records, for the administrator to approve. */
let offlineId = 0;

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Opens the purchase from the list of the page at `path` (the list taken as `listShot` first). */
async function openPurchase(page: Page, path: string, listShot?: string) {
  await page.goto(`${baseURL}${path}`);
  const row = page.locator(`[data-testid="ol-row"][data-offline-id="${offlineId}"]`);
  await row.waitFor();
  if (listShot) {
    await noSidewaysScroll(page);
    await shot(page, listShot);
  }
  await row.click();
  const drawer = page.getByTestId('ol-drawer');
  await drawer.getByTestId('ol-devices').waitFor();
  return drawer;
}

describe('offline purchases', () => {
  it('the operator records two of alice\'s devices once the check passes, and cannot approve it (en-US, 1280 px)', async () => {
    const { page } = session;
    const strings = readLocale('offline/locales', 'en-US');
    await page.setViewportSize({ width: 1280, height: 900 });
    await logInPastNotice(page, baseURL, 'operator', 'en-US');
    await page.goto(`${baseURL}/operation/offlinebuy`);
    await page.getByTestId('offline-buy-page').waitFor();
    await page.getByTestId('ol-new').click();

    await page.getByTestId('ol-customer').fill('alice');
    await page.getByTestId('ol-package').selectOption({ label: 'Standard cloud plan' });
    await page.getByTestId('ol-level').selectOption({ label: 'Basic' });
    await page.getByTestId('ol-time').selectOption({ label: '12 months' });
    await page.getByTestId('ol-amount').fill('1980.00');
    await page.getByTestId('ol-paytype').selectOption('61');
    await page.getByTestId('ol-remark').fill('Transfer ref. E2E-OFFLINE-1');
    await page.getByTestId('ol-guids').fill(`${ALICE[0]}, ${ACMES}`);
    expect(await page.getByTestId('ol-record').isDisabled()).toBe(true);
    await page.getByTestId('ol-check').click();
    const problem = page.getByTestId('ol-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toBe("The device is not the customer's");
    expect(await page.getByTestId('ol-record').isDisabled()).toBe(true);
    await shot(page, 'offline-purchases-check-problem-en-US-1280');

    await page.getByTestId('ol-guids').fill(ALICE.join('\n'));
    await page.getByTestId('ol-check').click();
    await expect.poll(() => page.getByTestId('ol-report-summary').textContent())
      .toBe(strings.check.allValid_other.replace('{{count}}', '2').replace('{{customer}}', 'alice'));
    expect(await page.getByTestId('ol-record').isEnabled()).toBe(true);
    await shot(page, 'offline-purchases-check-ok-en-US-1280');
    await page.getByTestId('ol-record').click();

    const drawer = page.getByTestId('ol-drawer');
    await drawer.getByTestId('ol-devices').waitFor();
    offlineId = Number(await drawer.getAttribute('data-offline-id'));
    expect(offlineId).toBeGreaterThan(0);
    expect(await drawer.getByTestId('ol-status').textContent()).toBe(strings.status['1']);
    expect(await drawer.getByTestId('ol-summary').textContent()).toContain('¥1,980.00');
    expect(await drawer.getByTestId('ol-device').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-guid')))).toEqual(ALICE);
    await shot(page, 'offline-purchases-recorded-en-US-1280');

    // the one who recorded it cannot approve it
    await openPurchase(page, '/operation/offlineExamine');
    await page.getByTestId('ol-review').click();
    await page.getByTestId('ol-approve').click();
    await page.getByTestId('ol-approve-confirmed').click();
    const refusal = page.getByTestId('ol-refusal');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain(strings.review.refused);
    await shot(page, 'offline-purchases-own-refused-en-US-1280');
  });

  it('the administrator approves it on a phone and both devices are recharged (ru-RU, 375 px)', async () => {
    expect(offlineId, 'the operator recorded the purchase').toBeGreaterThan(0);
    const { page } = session;
    const strings = readLocale('offline/locales', 'ru-RU');
    await page.setViewportSize({ width: 375, height: 800 });
    await logInPastNotice(page, baseURL, 'admin', 'ru-RU');
    const drawer = await openPurchase(page, '/operation/offlineExamine', 'offline-purchases-list-ru-RU-375');
    expect(await drawer.getByTestId('ol-status').textContent()).toBe(strings.status['1']);
    await noSidewaysScroll(page);
    await shot(page, 'offline-purchases-review-ru-RU-375');

    await page.getByTestId('ol-review').click();
    await page.getByTestId('ol-note').fill('Перевод получен');
    await page.getByTestId('ol-approve').click();
    expect(await page.getByTestId('ol-approve-confirm').textContent()).toBe(strings.review.confirm_few.replace('{{count}}', '2'));
    await shot(page, 'offline-purchases-approve-confirm-ru-RU-375');
    await page.getByTestId('ol-approve-confirmed').click();

    const result = page.getByTestId('ol-review-result');
    await result.waitFor();
    expect(await result.textContent()).toBe(strings.review.approved.replace('{{recharged}}', '2').replace('{{failed}}', '0'));
    await expect.poll(() => drawer.getByTestId('ol-device').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state'))))
      .toEqual(['1', '1']);
    // each expiry moved: before → after, both written
    for (const expiry of await drawer.getByTestId('ol-expiry').allTextContents()) expect(expiry).toMatch(/\d{4}.*\d{4}/);
    expect(await drawer.getByTestId('ol-status').textContent()).toBe(strings.status['2']);
    await noSidewaysScroll(page);
    await shot(page, 'offline-purchases-approved-ru-RU-375');
  });
});
