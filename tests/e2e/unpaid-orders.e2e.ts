/**
 * Unpaid orders do not pile up (issue 14, item 3), in a real browser against `coldchain serve` with
 * the development payment gateway: alice changes the term and the method three times in the paying
 * drawer, and My orders then lists one unpaid order (the last), whose Pay shows the same code again
 * and pays it; the earlier codes pay nothing. Another order is cancelled from My orders after its
 * details are read. Other suites share the database: every expectation is about the orders placed
 * here. Screenshots go to var/screenshots/.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const en = readLocale('recharge/locales', 'en-US').recharge;
const orders = readLocale('recharge/ordersLocales', 'en-US').rechargeOrders;

const ROOM_A = 'Cold room A logger';
const ROOM_B = 'Cold room B logger';

const session = browserSession();
let page: Page;
beforeEach(() => {
  page = session.page;
});

const deviceRow = (name: string): Locator => page.locator(`[data-testid="recharge-device-row"][data-device-name="${name}"]`);
const orderRow = (code: string): Locator => page.locator(`[data-testid="order-row"][data-order-code="${code}"]`);

/** The pay link in the drawer's QR code, once it is another than `previous`. */
async function nextCode(previous: string | null): Promise<URL> {
  const qr = page.getByTestId('payment-qr');
  await expect.poll(async () => ((await qr.count()) ? await qr.getAttribute('data-pay-code') : null), { timeout: 15_000 })
    .not.toBe(previous);
  await qr.waitFor();
  return new URL((await qr.getAttribute('data-pay-code')) ?? '');
}

const orderCode = (link: URL) => link.searchParams.get('order') ?? '';

/** Opens the paying drawer for the device's current level (Basic: "renew"). */
async function openPayingDrawer(device: string): Promise<void> {
  await page.goto(`${baseURL}/consumer/recharge`);
  await deviceRow(device).waitFor();
  const id = await deviceRow(device).getAttribute('data-device-id');
  await page.goto(`${baseURL}/consumer/recharge?deviceIds=${id}`);
  await page.getByTestId('level-cards').waitFor();
  const cards = page.getByTestId('level-card');
  await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(3);
  await cards.nth(1).getByTestId('level-button').click();
  await page.getByTestId('paying-drawer').waitFor();
}

async function closeDrawers(): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByTestId('paying-drawer').waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
  await page.getByTestId('recharge-drawer').waitFor({ state: 'detached' });
}

async function myOrders(): Promise<void> {
  await page.getByTestId('recharge-tab-orders').click();
  await page.getByTestId('my-orders').waitFor();
}

describe('unpaid orders', () => {
  it('three changes in the paying drawer leave one unpaid order, which Pay shows again and pays', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await openPayingDrawer(ROOM_A);
    const first = await nextCode(null);
    const years = page.getByTestId('year-option');
    await years.nth(1).click(); // change 1: the term
    const second = await nextCode(first.href);
    await page.getByTestId('pay-type-2').click({ force: true }); // change 2: the method
    const third = await nextCode(second.href);
    await years.nth(2).click(); // change 3: the term again
    const last = await nextCode(third.href);
    await shot(page, 'e2e-unpaid-orders-drawer');
    await closeDrawers();

    await myOrders();
    const row = orderRow(orderCode(last));
    await row.waitFor();
    for (const earlier of [first, second, third]) expect(await orderRow(orderCode(earlier)).count()).toBe(0);
    await expect(row.getByTestId('order-status').innerText()).resolves.toBe(en.page.orders.filter['1']);
    await expect(row.getByTestId('order-devices').innerText()).resolves.toBe(ROOM_A);
    await expect(row.getByTestId('order-amount').innerText()).resolves.toMatch(/^¥\d+$/);
    await expect(row.getByTestId('order-method').innerText()).resolves.toBe(en.paying.methods['2']);
    await shot(page, 'e2e-unpaid-orders-list');
    // the superseded codes pay nothing
    for (const earlier of [first, second, third]) {
      const answer = await page.request.get(`${baseURL}${earlier.pathname}${earlier.search}`);
      expect(answer.status()).toBe(409);
    }

    await row.getByTestId('order-pay').click();
    const resumed = page.getByTestId('resumed-payment');
    await resumed.waitFor();
    const again = await nextCode(null);
    expect(again.href).toBe(last.href);
    await expect(resumed.getByTestId('resumed-devices').innerText()).resolves.toBe(ROOM_A);
    await shot(page, 'e2e-unpaid-orders-pay-again');
    expect((await page.request.get(`${baseURL}${again.pathname}${again.search}`)).ok()).toBe(true);
    await resumed.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => page.getByText(en.paying.paid).count()).toBeGreaterThan(0);
    await expect.poll(() => row.getByTestId('order-status').innerText()).toBe(en.page.orders.filter['2']);
    expect(await row.getByTestId('order-pay').count()).toBe(0);
  });

  it('shows an order\'s details and cancels it after a confirmation', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await openPayingDrawer(ROOM_B);
    const link = await nextCode(null);
    await closeDrawers();
    await myOrders();
    const row = orderRow(orderCode(link));
    await row.waitFor();

    await row.getByTestId('order-details').click();
    const lines = page.getByTestId('order-lines');
    await lines.waitFor();
    await expect(lines.getByTestId('order-line').innerText()).resolves.toContain(ROOM_B);
    await expect(page.getByTestId('order-detail-status').innerText()).resolves.toBe(en.page.orders.filter['1']);
    await shot(page, 'e2e-unpaid-orders-details');
    await page.keyboard.press('Escape');
    await lines.waitFor({ state: 'detached' });

    await row.getByTestId('order-cancel').click();
    await page.getByTestId('order-cancel-confirm').waitFor();
    await shot(page, 'e2e-unpaid-orders-cancel');
    await page.getByRole('button', { name: orders.cancelConfirm.confirm }).click();
    await expect.poll(() => row.getByTestId('order-status').innerText()).toBe(en.page.orders.filter['4']);
    await expect.poll(() => page.getByText(orders.cancelled).count()).toBeGreaterThan(0);
    expect(await row.getByTestId('order-cancel').count()).toBe(0);
    const answer = await page.request.get(`${baseURL}${link.pathname}${link.search}`);
    expect(answer.status()).toBe(409);
  });
});
