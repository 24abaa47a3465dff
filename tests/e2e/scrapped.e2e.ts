/**
 * Scrapping a device (issue 16) in a real browser against `coldchain serve` with demo data: alice
 * scraps her expired Vaccine fridge logger from its detail page with a reason, finds it on the home
 * page's Scrapped tile and, through it, in the list filtered to scrapped devices with its tag, in
 * en-US and ru-RU at desktop and phone width; then restores it, so the other files see the demo as
 * seeded. Screenshots go to var/screenshots/.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, logInPastNotice, readLocale, shot, watchPolicies } from './browser';

const baseURL = inject('baseURL');
const FRIDGE = 'Vaccine fridge logger';
// The device counts with the Scrapped tile: another file keeps other tiles for alice, put back after.
const TILES = ['total', 'online', 'offline', 'alarm', 'disabled', 'expired', 'notEnabled', 'scrapped'];

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let policyProblems: string[];
let token: string;
let keptTiles: string[];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's answers, as the tests read them
async function call(method: string, path: string, body?: unknown): Promise<any> {
  const reply = await fetch(`${baseURL}/api${path}`, {
    method, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await reply.json()).data;
}

async function fridgeId(): Promise<number> {
  const found = await call('POST', '/device/Device/page', { deviceName: FRIDGE });
  return found.data[0].deviceId as number;
}

beforeAll(async () => {
  browser = await launch();
  token = (await (await fetch(`${baseURL}/api/base/BaseAccount/login`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userName: 'alice', accountPassword: 'Coldchain#2026', loginType: 1 }),
  })).json()).data.token as string;
  keptTiles = (await call('GET', '/base/BaseUserProfile/homeTiles')).tiles;
  await call('POST', '/base/BaseUserProfile/homeTiles', { tiles: TILES });
});
afterAll(async () => {
  await call('POST', '/device/Device/restore?deviceId=' + String(await fridgeId()));
  await call('POST', '/base/BaseUserProfile/homeTiles', { tiles: keptTiles });
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

async function quietShot(name: string): Promise<void> {
  await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
  await shot(page, name);
}

async function openFridge(): Promise<void> {
  await page.goto(`${baseURL}/device/list?deviceName=Vaccine`);
  await page.locator(`[data-testid="device-row"][data-device-name="${FRIDGE}"] [data-testid="device-link"]`).click();
  await page.getByTestId('device-detail-page').waitFor();
  await page.getByTestId('device-tab-info').click();
}

/** The home page's Scrapped tile, then the list it opens: the fridge alone, tagged. */
async function homeAndList(language: string, name: string): Promise<void> {
  const devices = readLocale('devices/locales', language);
  const home = readLocale('home/locales', language);
  await page.goto(`${baseURL}/home`);
  const tile = page.getByTestId('home-count-scrapped');
  await expect.poll(() => tile.textContent()).toBe(`1${home.devices.scrapped}`);
  await expect(page.getByTestId('home-count-expired').textContent()).resolves.toContain('0');
  await quietShot(`scrapped-home-${name}`);
  await tile.click();
  await page.waitForURL((url) => url.searchParams.get('status') === 'scrapped');
  const rows = page.getByTestId('device-row');
  await expect.poll(() => rows.count()).toBe(1);
  await expect(rows.first().getAttribute('data-device-name')).resolves.toBe(FRIDGE);
  await expect(rows.first().getByTestId('device-state').textContent()).resolves.toBe(devices.state.scrapped);
  await quietShot(`scrapped-list-${name}`);
}

describe('scrapped devices', () => {
  it('alice scraps her fridge with a reason and finds it on the Scrapped tile and in the filtered list', async () => {
    const en = readLocale('devices/locales', 'en-US');
    await open('en-US', 1440, 900);
    await openFridge();
    await page.getByTestId('device-scrap').click();
    await page.getByTestId('scrap-reason').fill('Compressor failed; replaced by a new logger');
    await quietShot('scrapped-dialog-en-US-desktop');
    const scrapped = page.waitForResponse((r) => r.url().endsWith('/api/device/Device/scrap'));
    await page.locator('.bp6-alert-footer').getByRole('button', { name: en.scrap.confirm_one }).click();
    expect((await scrapped).status()).toBe(200);
    await expect.poll(() => page.getByTestId('device-state').getAttribute('data-state')).toBe('scrapped');
    await page.getByTestId('device-restore').waitFor();
    await quietShot('scrapped-detail-en-US-desktop');
    await homeAndList('en-US', 'en-US-desktop');
  });

  for (const [language, width, height, name] of [
    ['en-US', 390, 844, 'en-US-phone'],
    ['ru-RU', 1440, 900, 'ru-RU-desktop'],
    ['ru-RU', 390, 844, 'ru-RU-phone'],
  ] as const) {
    it(`shows the Scrapped tile and the tagged list in ${name}`, async () => {
      await open(language, width, height);
      await homeAndList(language, name);
    });
  }

  it('alice restores the fridge from its detail page', async () => {
    await open('en-US', 1440, 900);
    await openFridge();
    await page.getByTestId('device-restore').click();
    const restored = page.waitForResponse((r) => r.url().includes('/api/device/Device/restore'));
    await page.locator('.bp6-alert-footer').getByRole('button', { name: 'Restore' }).click();
    expect((await restored).status()).toBe(200);
    await expect.poll(() => page.getByTestId('device-state').getAttribute('data-state')).not.toBe('scrapped');
    await page.getByTestId('device-scrap').waitFor();
  });
});
