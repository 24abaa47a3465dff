/**
 * A read-only member in a real browser against `coldchain serve` with demo data: bob belongs to
 * Acme's organization as a member, so he reads its two devices ("Warehouse 1 door logger", a Wi-Fi
 * logger expiring within 30 days, and "Warehouse 1 cold room") and the server refuses every change
 * of them with 403, which logs the console out (spec seed 000 section 8). The console must not
 * offer him those changes: the device list, the detail page, the recharge page, the recharge drawer
 * opened from an address and the expired-service dialog show them disabled with the reason, and he
 * is never logged out. acme and alice keep every change of their own devices.
 *
 * bob has not told his identity and industry yet, and the identity dialog (modal, not closable)
 * asks him at every page: shell.e2e.ts tests that dialog on the same database, so these tests do
 * not answer it (which would store his profile for good) but fill it into the accountInfo answers
 * their own browser receives. Every device, recharge and alarm call goes to the server unchanged.
 * Screenshots go to var/screenshots/ (read-only-*.png).
 */
import type { Locator, Page, Request, Response } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot, withProfileFilledIn } from './browser';

const baseURL = inject('baseURL');
const devices = (language: string) => readLocale('devices/locales', language);
const en = devices('en-US');
const ru = devices('ru-RU');

const DOOR_LOGGER = 'Warehouse 1 door logger';
const COLD_ROOM = 'Warehouse 1 cold room';
/** The calls that change a device, its service or its alarms. */
const WRITES = /\/api\/(device\/Device\/(update|delete|credentials\/rotate)|device\/DeviceAlarm\/deal|device\/DeviceAlarmRule\/(insert|update|delete)|payment\/PayOrder\/(create\w*|unAgreement))$/;

const session = browserSession();
let page: Page;
beforeEach(() => {
  page = session.page;
});

/** What the server refused (403) and which changes the page asked for, from now on. */
function watch(target: Page): { refused: string[]; writes: string[] } {
  const seen = { refused: [] as string[], writes: [] as string[] };
  target.on('response', (response: Response) => {
    if (response.status() === 403) seen.refused.push(response.url());
  });
  target.on('request', (request: Request) => {
    if (WRITES.test(new URL(request.url()).pathname)) seen.writes.push(`${request.method()} ${request.url()}`);
  });
  return seen;
}

/** A screenshot once the toasts (the expiry reminder) have gone. */
async function quietShot(target: Page, name: string): Promise<void> {
  await target.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
  await shot(target, name);
}

const deviceRow = (target: Page, name: string): Locator =>
  target.locator(`[data-testid="device-row"][data-device-name="${name}"]`);

/** The tooltip shown while the pointer is over `control`. */
async function tooltipOf(target: Page, control: Locator): Promise<string> {
  await control.hover();
  const tooltip = target.locator('.bp6-tooltip').last();
  await tooltip.waitFor();
  return (await tooltip.textContent()) ?? '';
}

/** Still signed in: the token is kept and no login page was shown. */
async function expectSignedIn(target: Page): Promise<void> {
  expect(new URL(target.url()).pathname.startsWith('/user/login')).toBe(false);
  await expect(target.evaluate(() => localStorage.getItem('jc__token'))).resolves.not.toBeNull();
}

describe('a read-only member of an organization', () => {
  it('sees Acme\'s devices with no change offered, the reason on each, and stays signed in', async () => {
    const seen = watch(page);
    await withProfileFilledIn(page);
    await logInPastNotice(page, baseURL, 'bob', 'en-US');

    // the device list: a Read-only tag, and Recharge disabled with the reason
    await page.goto(`${baseURL}/device/list`);
    const door = deviceRow(page, DOOR_LOGGER);
    await door.waitFor();
    await expect(door.getAttribute('data-access')).resolves.toBe('1');
    await expect(door.getByTestId('read-only').textContent()).resolves.toBe(en.access.readOnly);
    const recharge = door.getByTestId('device-recharge');
    await expect(recharge.getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(recharge.getAttribute('href')).resolves.toBeNull();
    await recharge.click({ force: true });
    await expect(tooltipOf(page, recharge)).resolves.toBe(en.access.readOnlyReason);
    await expect(page.getByTestId('recharge-drawer').count()).resolves.toBe(0);
    await quietShot(page, 'read-only-device-list');
    const detailHref = (await door.getByTestId('device-link').getAttribute('href')) ?? '';
    const doorId = Number(detailHref.match(/(\d+)$/)?.[1]);
    expect(doorId).toBeGreaterThan(0);

    await page.getByTestId('device-scene-2').click();
    await deviceRow(page, COLD_ROOM).waitFor();
    await expect(deviceRow(page, COLD_ROOM).getByTestId('device-recharge').getAttribute('aria-disabled')).resolves.toBe('true');

    // the detail page: Read-only beside the state, Recharge and Edit disabled
    await page.goto(`${baseURL}${detailHref}?tab=info`);
    await page.getByTestId('device-info').waitFor();
    await expect(page.getByTestId('device-name').textContent()).resolves.toBe(DOOR_LOGGER);
    await expect(page.getByTestId('read-only').textContent()).resolves.toBe(en.access.readOnly);
    await expect(page.getByTestId('device-detail-recharge').getAttribute('aria-disabled')).resolves.toBe('true');
    const edit = page.getByTestId('device-edit');
    await expect(edit.getAttribute('aria-disabled')).resolves.toBe('true');
    await edit.click({ force: true });
    await expect(tooltipOf(page, edit)).resolves.toBe(en.access.readOnlyReason);
    await expect(page.getByTestId('device-edit-form').count()).resolves.toBe(0);
    await expect(page.getByTestId('info-owner').textContent()).resolves.toContain('acme');
    await quietShot(page, 'read-only-device-detail');

    // the recharge page: none of his devices can be chosen (Acme's two, and alice's cold room A,
    // which she shares with him view-only), and each row says why
    await page.goto(`${baseURL}/consumer/recharge`);
    const rows = page.getByTestId('recharge-device-row');
    await rows.nth(2).waitFor();
    await expect(rows.count()).resolves.toBe(3);
    for (const row of await rows.all()) {
      await expect(row.getByRole('checkbox').isDisabled()).resolves.toBe(true);
      await expect(row.getAttribute('title')).resolves.toBe(en.access.readOnlyReason);
      await expect(row.getByTestId('read-only').count()).resolves.toBe(1);
    }
    await rows.first().locator('td').nth(2).click();
    await expect(rows.first().getByRole('checkbox').isChecked()).resolves.toBe(false);
    await expect(page.getByTestId('recharge-open').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('recharge-buy-alerts').isDisabled()).resolves.toBe(true);
    await quietShot(page, 'read-only-recharge-page');

    // a recharge link to one of them (a new tab, a bookmark) opens a drawer with nothing to buy
    await page.goto(`${baseURL}/consumer/recharge?deviceIds=${doorId}`);
    await page.getByTestId('recharge-read-only').waitFor();
    await expect(page.getByTestId('recharge-read-only').textContent()).resolves.toBe(en.access.readOnlyReason);
    const levels = page.getByTestId('level-button');
    await levels.nth(1).waitFor();
    for (const button of await levels.all()) await expect(button.isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('buy-alerts').count()).resolves.toBe(0);
    await quietShot(page, 'read-only-recharge-drawer');

    // the expired-service dialog lists the expiring door logger, not for a batch recharge
    await page.goto(`${baseURL}/home`);
    await page.getByTestId('home-tile-expiring').click();
    const dialog = page.getByTestId('expired-dialog');
    const expiring = dialog.locator(`[data-testid="expired-row"][data-device-name="${DOOR_LOGGER}"]`);
    await expiring.waitFor();
    await expect(expiring.getByRole('checkbox').isDisabled()).resolves.toBe(true);
    await expect(expiring.getAttribute('title')).resolves.toBe(en.access.readOnlyReason);
    await expect(dialog.getByTestId('batch-recharge').isDisabled()).resolves.toBe(true);
    await quietShot(page, 'read-only-expired-dialog');

    expect(seen.writes).toEqual([]);
    expect(seen.refused).toEqual([]);
    await expectSignedIn(page);
  });

  it('sees them the same way in Russian on a phone', async () => {
    const phone = await session.context.browser()!.newContext({ viewport: { width: 390, height: 844 }, locale: 'ru-RU', isMobile: true, hasTouch: true });
    try {
      const small = await phone.newPage();
      const seen = watch(small);
      await withProfileFilledIn(small);
      await logInPastNotice(small, baseURL, 'bob', 'ru-RU');
      await small.goto(`${baseURL}/device/list`);
      const door = deviceRow(small, DOOR_LOGGER);
      await door.waitFor();
      await expect(door.getByTestId('read-only').textContent()).resolves.toBe(ru.access.readOnly);
      await expect(door.getByTestId('device-recharge').getAttribute('aria-disabled')).resolves.toBe('true');
      await quietShot(small, 'read-only-device-list-phone-ru');

      await door.getByTestId('device-link').click();
      await small.getByTestId('device-detail-page').waitFor();
      await expect(small.getByTestId('read-only').textContent()).resolves.toBe(ru.access.readOnly);
      await expect(small.getByTestId('device-detail-recharge').getAttribute('aria-disabled')).resolves.toBe('true');
      await quietShot(small, 'read-only-device-detail-phone-ru');

      await small.goto(`${baseURL}/consumer/recharge`);
      const row = small.locator(`[data-testid="recharge-device-row"][data-device-name="${DOOR_LOGGER}"]`);
      await row.waitFor();
      await expect(row.getByRole('checkbox').isDisabled()).resolves.toBe(true);
      await expect(row.getAttribute('title')).resolves.toBe(ru.access.readOnlyReason);
      await quietShot(small, 'read-only-recharge-page-phone-ru');

      expect(seen.writes).toEqual([]);
      expect(seen.refused).toEqual([]);
      await expectSignedIn(small);
    } finally {
      await phone.close();
    }
  });
});

describe('those who may change the devices', () => {
  it('leaves acme, whose organization owns them, every change', async () => {
    await logInPastNotice(page, baseURL, 'acme', 'en-US');
    await page.goto(`${baseURL}/device/list`);
    const door = deviceRow(page, DOOR_LOGGER);
    await door.waitFor();
    await expect(door.getAttribute('data-access')).resolves.toBe('2');
    await expect(door.getByTestId('read-only').count()).resolves.toBe(0);
    await expect(door.getByTestId('device-recharge').getAttribute('href')).resolves.toMatch(/^\/consumer\/recharge\?deviceIds=\d+$/);
    await door.getByTestId('device-link').click();
    await page.getByTestId('device-tab-info').click();
    await page.getByTestId('device-info').waitFor();
    await expect(page.getByTestId('device-edit').getAttribute('aria-disabled')).resolves.toBeNull();
    await page.getByTestId('device-edit').click();
    await page.getByTestId('device-edit-form').waitFor();
    await quietShot(page, 'read-only-owner-edits');
  });

  it('leaves alice every change of her own devices', async () => {
    await logInPastNotice(page, baseURL, 'alice', 'en-US');
    await page.goto(`${baseURL}/device/list`);
    await page.getByTestId('device-table').waitFor();
    const rows = page.getByTestId('device-row');
    await rows.nth(3).waitFor();
    await expect(rows.count()).resolves.toBe(4);
    await expect(page.getByTestId('read-only').count()).resolves.toBe(0);
    for (const row of await rows.all()) {
      await expect(row.getByTestId('device-recharge').getAttribute('href')).resolves.toMatch(/^\/consumer\/recharge\?deviceIds=\d+$/);
    }
  });
});
