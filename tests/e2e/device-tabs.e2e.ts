/**
 * The device detail's parameter settings, recharge, operation log and maintenance tabs and the
 * device actions, in a real browser against `coldchain serve` with demo data: alice sends new
 * parameters to Cold room A logger, finds the change in its operation log, adds a maintenance
 * record (and deletes it again, so the other files see the demo as seeded), opens the recharge
 * flow from its tab, and sees every tab in en-US and ru-RU at desktop and phone width. Screenshots
 * go to var/screenshots/ (and $TABS_SHOTS when set).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, logInPastNotice, readLocale, SCREENSHOTS, shot, watchPolicies } from './browser';

const baseURL = inject('baseURL');
const ROOM_A = 'Cold room A logger';
const TABS = ['params', 'recharge', 'log', 'maintenance', 'info'] as const;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let policyProblems: string[];

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function open(language: string, width: number, height: number): Promise<void> {
  context = await browser.newContext({ viewport: { width, height }, locale: language });
  policyProblems = await watchPolicies(context);
  page = await context.newPage();
  errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await logInPastNotice(page, baseURL, 'alice', language);
}

afterEach(async () => {
  await context?.close();
  expect(errors).toEqual([]);
  expect(policyProblems).toEqual([]);
});

async function openTab(tab: (typeof TABS)[number]): Promise<void> {
  await page.goto(`${baseURL}/device/list`);
  await page.locator(`[data-testid="device-row"][data-device-name="${ROOM_A}"] [data-testid="device-link"]`).click();
  await page.getByTestId('device-detail-page').waitFor();
  await page.getByTestId(`device-tab-${tab}`).click();
}

async function tabShot(name: string): Promise<void> {
  await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
  await shot(page, name);
  const extra = process.env.TABS_SHOTS;
  if (extra) {
    mkdirSync(extra, { recursive: true });
    copyFileSync(join(SCREENSHOTS, `${name}.png`), join(extra, `${name}.png`));
  }
}

describe('device detail tabs', () => {
  it('alice sends parameters, finds the change in the operation log, and keeps a maintenance record', async () => {
    const en = readLocale('devices/tabsLocales', 'en-US');
    await open('en-US', 1440, 900);
    await openTab('params');
    await page.getByTestId('params-form').waitFor();
    await page.getByTestId('param-record').fill('900');
    await page.getByText(en.paramsTab.error.recordAfterUpload).waitFor(); // as she types
    await page.getByTestId('param-record').fill('60');
    await page.getByTestId('param-upload').fill('600');
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/device/DeviceParam/save'));
    await page.getByTestId('params-save').click();
    expect((await saved).status()).toBe(200);
    // No device answers in this set-up: waiting (until it turns "not answered"), or unsent without a broker.
    const state = page.getByTestId('params-state');
    await expect.poll(() => state.getAttribute('data-state')).toMatch(/^(pending|unsent|notAnswered)$/);
    await tabShot('device-tabs-params-en-US-desktop');

    await page.getByTestId('device-tab-log').click();
    const first = page.getByTestId('log-row').first();
    await first.waitFor();
    await expect(first.getAttribute('data-kind')).resolves.toBe('params_changed');
    await expect(first.textContent()).resolves.toContain('alice');
    await tabShot('device-tabs-log-en-US-desktop');

    await page.getByTestId('device-tab-maintenance').click();
    await page.getByTestId('maintenance-add').click();
    const form = page.getByTestId('maintenance-form');
    await form.getByTestId('maintenance-person').fill('Li Wei');
    await form.getByTestId('maintenance-reason').fill('Door seal worn');
    await form.getByTestId('maintenance-content').fill('Replaced the door seal and checked the compressor');
    await form.getByTestId('maintenance-approver').fill('Zhang');
    await tabShot('device-tabs-maintenance-form-en-US-desktop');
    const added = page.waitForResponse((r) => r.url().endsWith('/api/device/DeviceMaintenance/insert'));
    await form.getByTestId('maintenance-save').click();
    expect((await added).status()).toBe(200);
    await page.getByTestId('maintenance-record').first().waitFor();
    await expect(page.getByTestId('maintenance-record').first().textContent()).resolves.toContain('Door seal worn');
    await tabShot('device-tabs-maintenance-en-US-desktop');
  });

  it('opens the recharge flow for this device from its tab', async () => {
    await open('en-US', 1440, 900);
    await openTab('recharge');
    await page.getByTestId('device-recharge').waitFor();
    await tabShot('device-tabs-recharge-en-US-desktop');
    const asked = page.waitForRequest((r) => r.url().includes('/api/payment/PayServicePackages/selectDeviceDepositInfo'));
    await page.getByTestId('recharge-tab-renew').click();
    expect(new URL((await asked).url()).searchParams.get('deviceId')).not.toBeNull();
    await page.locator('.bp6-drawer').first().waitFor();
  });

  it('looks right in Russian and English, at desktop and phone width', async () => {
    for (const [language, width, height, name] of [
      ['ru-RU', 1440, 900, 'desktop'],
      ['ru-RU', 375, 812, 'phone'],
      ['en-US', 375, 812, 'phone'],
    ] as const) {
      await open(language, width, height);
      for (const tab of TABS) {
        await openTab(tab);
        await page.getByTestId(tab === 'info' ? 'device-actions' : `device-${tab}`).waitFor();
        if (tab === 'info') await page.getByTestId('device-actions').scrollIntoViewIfNeeded();
        await tabShot(`device-tabs-${tab}-${language}-${name}`);
      }
      await context.close();
      expect(errors).toEqual([]);
    }
    await open('en-US', 1440, 900); // afterEach closes this one
  });

  it('puts the demo back: the maintenance record it added is deleted, once confirmed', async () => {
    await open('en-US', 1440, 900);
    await openTab('maintenance');
    const records = page.getByTestId('maintenance-record');
    await records.first().waitFor();
    const before = await records.count();
    await records.first().getByTestId('maintenance-delete').click();
    await page.getByTestId('maintenance-delete-confirm').waitFor();
    const removed = page.waitForResponse((r) => r.url().includes('/api/device/DeviceMaintenance/delete'));
    await page.locator('.bp6-alert-footer .bp6-intent-danger').click();
    expect((await removed).status()).toBe(200);
    await expect.poll(() => records.count()).toBe(before - 1);
  });
});
