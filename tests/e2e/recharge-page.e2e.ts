/**
 * The recharge page (/consumer/recharge) in a real browser against `coldchain serve` with demo
 * data: alice chooses two Wi-Fi loggers (a device of another type can then not be chosen), pays for
 * them together by "scanning" the test server's development pay link, sees both expiry dates move
 * and the order paid under My orders; `?deviceIds=` opens the drawer at once. Other suites share
 * the database, so every expectation is relative to what the page showed before. Screenshots go
 * to var/screenshots/.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const locale = (language: string) => readLocale('recharge/locales', language).recharge;
const en = locale('en-US');
const zh = locale('zh-CN');

const ROOM_A = 'Cold room A logger';
const ROOM_B = 'Cold room B logger';
const TRUCK = 'Truck 12 tracker';

const session = browserSession();
let page: Page;
beforeEach(() => {
  page = session.page;
});

const deviceRow = (name: string): Locator => page.locator(`[data-testid="recharge-device-row"][data-device-name="${name}"]`);
const checkbox = (name: string): Locator => deviceRow(name).getByRole('checkbox');
const expiry = async (name: string): Promise<string> => (await deviceRow(name).getAttribute('data-expiry')) ?? '';
const promised = async (name: string): Promise<string> => {
  const after = page.getByTestId('level-change-row').filter({ hasText: name }).getByTestId('level-change-after');
  return (await after.innerText()).match(/\d{4}-\d{2}-\d{2}/)?.[0] ?? '';
};

async function openPage(path = '/consumer/recharge'): Promise<void> {
  await page.goto(`${baseURL}${path}`);
  await page.getByTestId('recharge-page').waitFor();
}

describe('the recharge page', () => {
  it('recharges two Wi-Fi loggers together; both expiry dates move and the order shows paid', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await openPage();
    await deviceRow(ROOM_A).waitFor();
    await deviceRow(TRUCK).waitFor();
    const before = { a: await expiry(ROOM_A), b: await expiry(ROOM_B) };
    expect(before.a).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(before.b).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await expect.poll(() => page.getByTestId('recharge-open').isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('recharge-buy-alerts').isDisabled()).toBe(true);
    await shot(page, 'e2e-recharge-page');

    // Choosing a Wi-Fi logger leaves the other types' checkboxes disabled.
    await deviceRow(ROOM_A).locator('label').click();
    await expect.poll(() => checkbox(ROOM_A).isChecked()).toBe(true);
    await expect.poll(() => checkbox(TRUCK).isDisabled()).toBe(true);
    await deviceRow(ROOM_B).locator('label').click();
    await expect.poll(() => checkbox(ROOM_B).isChecked()).toBe(true);
    await expect.poll(() => checkbox(TRUCK).isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('recharge-open').isEnabled()).toBe(true);
    await shot(page, 'e2e-recharge-page-selected');

    await page.getByTestId('recharge-open').click();
    const batch = page.getByTestId('batch-table');
    await batch.waitFor();
    await expect.poll(() => batch.getByTestId('batch-row').count()).toBe(2);
    await expect(batch.innerText()).resolves.toContain(ROOM_A);
    await expect(batch.innerText()).resolves.toContain(ROOM_B);
    const cards = page.getByTestId('level-card');
    await expect.poll(() => cards.count()).toBe(3);
    // the free level cannot be bought; the last one (Professional) can
    await expect.poll(() => cards.nth(0).getByTestId('level-button').isDisabled()).toBe(true);
    await shot(page, 'e2e-recharge-page-drawer');

    await cards.nth(2).getByTestId('level-button').click();
    const quote = page.getByTestId('quote-table');
    await quote.waitFor();
    await expect.poll(() => quote.getByTestId('quote-row').count()).toBe(2);
    const qr = page.getByTestId('payment-qr');
    await qr.waitFor({ timeout: 15_000 });
    const amounts = await quote.getByTestId('quote-amount').allInnerTexts();
    for (const amount of amounts) expect(amount).toMatch(/^¥\d+$/);
    // What each device will have once paid (a change of level converts the remaining time, so a
    // long remainder can end earlier than before: the promise is what must be kept).
    await expect.poll(() => page.getByTestId('level-change-row').count()).toBe(2);
    const promise = { a: await promised(ROOM_A), b: await promised(ROOM_B) };
    expect(promise.a).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(promise.b).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await shot(page, 'e2e-recharge-page-paying');

    // The payer's phone opens the code (on the test server's own address).
    const link = new URL((await qr.getAttribute('data-pay-code')) ?? '');
    const orderCode = link.searchParams.get('order') ?? '';
    const cents = Number(link.searchParams.get('amount'));
    expect(orderCode).not.toBe('');
    const paid = await page.request.get(`${baseURL}${link.pathname}${link.search}`);
    expect(paid.ok()).toBe(true);

    await page.getByTestId('paying-drawer').waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => page.getByText(en.paying.paid).count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await page.getByTestId('recharge-drawer').waitFor({ state: 'detached' });

    // Both devices' service now ends exactly when the drawer said.
    await expect.poll(() => expiry(ROOM_A)).toBe(promise.a);
    await expect.poll(() => expiry(ROOM_B)).toBe(promise.b);

    // The order, paid, under My orders.
    await page.getByTestId('recharge-tab-orders').click();
    const order = page.locator(`[data-testid="order-row"][data-order-code="${orderCode}"]`);
    await order.waitFor();
    await expect(order.getByTestId('order-status').innerText()).resolves.toBe(en.page.orders.filter['2']);
    await expect(order.getByTestId('order-amount').innerText()).resolves.toBe(`¥${Math.trunc(cents / 100)}`);
    await expect(order.getByTestId('order-method').innerText()).resolves.toBe(en.paying.methods['1']);
    await expect(order.getByTestId('order-devices').innerText()).resolves.toBe(`${ROOM_A}, ${ROOM_B}`);
    await shot(page, 'e2e-recharge-page-orders');
  });

  it('opens the recharge drawer from ?deviceIds= and forgets it once closed', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await openPage();
    await deviceRow(ROOM_B).waitFor();
    const id = await deviceRow(ROOM_B).getAttribute('data-device-id');
    expect(Number(id)).toBeGreaterThan(0);

    await openPage(`/consumer/recharge?deviceIds=${id}`);
    const header = page.getByTestId('recharge-device');
    await header.waitFor();
    await expect(page.getByTestId('header-name').innerText()).resolves.toContain(ROOM_B);
    await page.getByTestId('level-cards').waitFor();
    await shot(page, 'e2e-recharge-page-deeplink');

    await page.keyboard.press('Escape');
    await page.getByTestId('recharge-drawer').waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/consumer/recharge' && !url.searchParams.has('deviceIds'));
    await page.reload();
    await deviceRow(ROOM_B).waitFor();
    expect(await page.getByTestId('recharge-drawer').count()).toBe(0);

    // A bad list is ignored: the page shows, no drawer.
    await openPage('/consumer/recharge?deviceIds=1,x');
    await deviceRow(ROOM_B).waitFor();
    expect(await page.getByTestId('recharge-drawer').count()).toBe(0);
  });

  it('reads in Chinese', async () => {
    await logInPastNotice(page, baseURL, 'alice', 'zh-CN');
    await openPage();
    await deviceRow(ROOM_A).waitFor();
    await expect(page.getByTestId('recharge-tab-devices').innerText()).resolves.toContain(zh.page.tabs.devices);
    await deviceRow(ROOM_A).locator('label').click();
    await expect.poll(() => checkbox(TRUCK).isDisabled()).toBe(true);
    await expect(page.getByTestId('recharge-selected').innerText()).resolves.toContain('已选 1 台设备');
    await shot(page, 'e2e-recharge-page-zh');

    await page.getByTestId('recharge-tab-orders').click();
    await page.getByTestId('my-orders').waitFor();
    await page.locator('[data-testid="order-row"], [data-testid="my-orders-empty"]').first().waitFor();
    await shot(page, 'e2e-recharge-page-orders-zh');
  });
});
