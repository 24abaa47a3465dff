/**
 * The device screens in a real browser against `coldchain serve` with demo data: alice's six
 * devices in the list's three tabs, a name search, a device's live values, its history chart
 * (ECharts on a canvas) over two ranges, its alarm records and basic information with an edit,
 * and the device counts on the home page. Chinese, the domestic default, unless said otherwise.
 * Screenshots go to var/screenshots/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { launch, logInPastNotice, shot, watchPolicies } from './browser';

const baseURL = inject('baseURL');
const strings = (lang: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../web/src/features/devices/locales/${lang}.json`, import.meta.url)), 'utf8'));
const zh = strings('zh-CN');
const en = strings('en-US');

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
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  policyProblems = await watchPolicies(context);
  page = await context.newPage();
  errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
});
afterEach(async () => {
  await context?.close();
  expect(errors).toEqual([]);
  expect(policyProblems).toEqual([]);
});

/** Logs alice in and closes the seeded notice (tick "don't remind again", close). */
async function signIn(language = 'zh-CN'): Promise<void> {
  await logInPastNotice(page, baseURL, 'alice', language);
}

/** A screenshot once the toasts (the expiry reminder, "saved") have gone. */
async function quietShot(name: string): Promise<void> {
  await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
  await shot(page, name);
}

const isCall = (path: string, method = 'POST') => (request: Request) =>
  request.method() === method && new URL(request.url()).pathname === `/api${path}`;

const rows = () => page.getByTestId('device-row');
const rowNames = async () => rows().evaluateAll((els) => els.map((el) => el.getAttribute('data-device-name')));

async function openDevice(name: string): Promise<void> {
  await page.goto(`${baseURL}/device/list`);
  await page.locator(`[data-testid="device-row"][data-device-name="${name}"] [data-testid="device-link"]`).click();
  await page.getByTestId('device-detail-page').waitFor();
}

describe('the device screens', () => {
  it('lists alice\'s devices by tab and finds one by name', async () => {
    await signIn();
    await page.goto(`${baseURL}/device/list`);
    await page.getByTestId('device-table').waitFor();
    await expect.poll(rowNames).toEqual(
      expect.arrayContaining(['Cold room A logger', 'Cold room B logger', 'Vaccine fridge logger', 'Truck 12 tracker']),
    );
    await expect(rows().count()).resolves.toBe(4);
    // the expired fridge and the lifelong truck say so
    const fridge = page.locator('[data-testid="device-row"][data-device-name="Vaccine fridge logger"]');
    await expect(fridge.getByTestId('service-state').getAttribute('data-state')).resolves.toBe('expired');
    await expect(fridge.getByTestId('device-recharge').getAttribute('href')).resolves.toMatch(/^\/consumer\/recharge\?deviceIds=\d+$/);
    const truck = page.locator('[data-testid="device-row"][data-device-name="Truck 12 tracker"]');
    await expect(truck.getByTestId('service-state').textContent()).resolves.toBe(zh.service.lifelong);
    await expect.poll(() => page.getByTestId('device-scene-3').textContent()).toBe(`${zh.scene['3']}1`);
    await quietShot('device-list');

    await page.getByTestId('device-scene-2').click();
    await page.waitForURL(/\/device\/list\/storage$/);
    await expect.poll(rowNames).toEqual(['Dock cold room']);
    await page.getByTestId('device-scene-3').click();
    await page.waitForURL(/\/device\/list\/freezer$/);
    await expect.poll(rowNames).toEqual(['Pharmacy freezer']);

    await page.getByTestId('device-scene-1').click();
    await page.waitForURL(/\/device\/list$/);
    await expect.poll(() => rows().count()).toBe(4); // the tab has rendered, not only the address changed
    await page.getByTestId('device-search').fill('fridge');
    const [search] = await Promise.all([
      page.waitForRequest((r) => isCall('/device/Device/page')(r) && r.postDataJSON().pageSize !== 1),
      page.getByTestId('device-search-submit').click(),
    ]);
    expect(search.postDataJSON()).toMatchObject({ scene: 1, deviceName: 'fridge', start: 1 });
    await page.waitForURL(/\/device\/list\?deviceName=fridge$/);
    await expect.poll(rowNames).toEqual(['Vaccine fridge logger']);
    await quietShot('device-list-search');
  });

  it('shows a device\'s live values and refreshes them', async () => {
    await signIn();
    await openDevice('Cold room A logger');
    await expect(page.getByTestId('device-name').textContent()).resolves.toBe('Cold room A logger');
    const temperature = page.getByTestId('probe-t-value');
    await expect(temperature.textContent()).resolves.toMatch(/^-?\d+\.\d °C$/); // one decimal, Celsius
    await expect(page.getByTestId('probe-t').textContent()).resolves.toContain('8.0 °C'); // the alarm rule's limits
    await expect(page.getByTestId('probe-t').textContent()).resolves.toContain('2.0 °C');
    await expect(page.getByTestId('device-connection').textContent()).resolves.toContain(zh.state.online);
    await quietShot('device-detail');
    // asked again by itself within 10 s
    await page.waitForRequest(isCall('/device/Device/get', 'GET'), { timeout: 15_000 });
  });

  it('draws the history chart and asks again for another range (in English)', async () => {
    await context.close();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
    await watchPolicies(context, policyProblems);
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn('en-US');
    await openDevice('Cold room A logger');
    await expect(page.getByRole('tab', { name: en.detail.tab.chart }).count()).resolves.toBe(1);

    const [first] = await Promise.all([
      page.waitForRequest(isCall('/device/Device/history')),
      page.getByRole('tab', { name: en.detail.tab.chart }).click(),
    ]);
    const asked = first.postDataJSON();
    expect(Date.parse(asked.endTime) - Date.parse(asked.startTime)).toBe(24 * 3_600_000);
    expect(asked.maxPoints).toBeGreaterThanOrEqual(1000); // sized to a chart about 1100 px wide
    expect(asked.maxPoints).toBeLessThanOrEqual(5000);
    await page.locator('[data-testid="history-chart-canvas"] canvas').first().waitFor();
    await expect.poll(() => page.getByTestId('history-summary').textContent()).toMatch(/\d+ readings/);

    const [second] = await Promise.all([
      page.waitForRequest(isCall('/device/Device/history')),
      page.getByTestId('range-7d').click(),
    ]);
    const week = second.postDataJSON();
    expect(Date.parse(week.endTime) - Date.parse(week.startTime)).toBe(7 * 86_400_000);
    expect(week.deviceId).toBe(asked.deviceId);
    const answer = await second.response();
    const history = (await answer?.json())?.data;
    expect(history.points.length).toBeGreaterThan(100); // the demo's week of readings
    expect(history.points.length).toBeLessThanOrEqual(week.maxPoints);
    await page.locator('[data-testid="history-chart-canvas"] canvas').first().waitFor();
    await expect(page.getByTestId('range-7d').getAttribute('aria-pressed')).resolves.toBe('true');
    await page.waitForTimeout(300); // the canvas paints on the next frame
    await quietShot('device-chart-7d');
  });

  it('lists the device\'s alarm records', async () => {
    await signIn();
    await openDevice('Cold room A logger');
    const id = Number(await page.getByTestId('device-detail-page').getAttribute('data-device-id'));
    const [request] = await Promise.all([
      page.waitForRequest(isCall('/device/DeviceAlarm/page')),
      page.getByTestId('device-tab-alarms').click(),
    ]);
    expect(request.postDataJSON()).toEqual({ deviceId: id, start: 1, pageSize: 10 });
    await page.waitForURL(/\?tab=alarms$/);
    // the demo seed froze this cold room for half an hour once, and alice has handled it
    const row = page.getByTestId('alarm-row').first();
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(zh.alarms.kind['2']);
    await expect(row.textContent()).resolves.toContain(zh.alarms.state['1']);
    await expect(row.getByTestId('alarm-handling').textContent()).resolves.toContain(`${zh.alarms.handling['1']} · alice`);
    await quietShot('device-alarms');

    // only the untreated ones: this device has none left
    const [untreated] = await Promise.all([
      page.waitForRequest(isCall('/device/DeviceAlarm/page')),
      page.getByTestId('alarm-state-filter').selectOption('0'),
    ]);
    expect(untreated.postDataJSON()).toEqual({ deviceId: id, start: 1, pageSize: 10, state: 0 });
    await page.getByTestId('alarms-empty').waitFor();
  });

  it('shows the basic information and edits the name and remark', async () => {
    await signIn();
    await openDevice('Truck 12 tracker');
    await page.getByTestId('device-tab-info').click();
    await expect(page.getByTestId('info-guid').textContent()).resolves.toContain('LOGET8A0000001');
    await expect(page.getByTestId('info-sim').textContent()).resolves.toContain('89860012345678900002');
    await expect(page.getByTestId('info-owner').textContent()).resolves.toContain('alice');
    await expect(page.getByTestId('info-countryCode').textContent()).resolves.toContain('+86');
    await expect(page.getByTestId('info-unit').textContent()).resolves.toContain(zh.info.unit.C);

    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('jc__token') ?? '{}').value as string);
    const id = Number(await page.getByTestId('device-detail-page').getAttribute('data-device-id'));
    try {
      await page.getByTestId('device-edit').click();
      const form = page.getByTestId('device-edit-form');
      await form.locator('#deviceName').fill('   ');
      await form.getByTestId('device-edit-save').click();
      await form.getByText(zh.rule.nameRequired).waitFor();

      await form.locator('#deviceName').fill('Truck 12 tracker (cab)');
      await form.locator('#remark').fill('Reefer unit checked 22 Nov');
      const [saved] = await Promise.all([
        page.waitForRequest(isCall('/device/Device/update', 'PUT')),
        form.getByTestId('device-edit-save').click(),
      ]);
      expect(saved.postDataJSON()).toMatchObject({
        deviceId: id,
        deviceName: 'Truck 12 tracker (cab)',
        remark: 'Reefer unit checked 22 Nov',
        displayPrecision: 1,
        temperatureUnit: 'C',
      });
      await form.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('device-name').textContent()).toBe('Truck 12 tracker (cab)');
      await expect(page.getByTestId('info-remark').textContent()).resolves.toContain('Reefer unit checked 22 Nov');
      await quietShot('device-info');
    } finally {
      // leave the demo as it was for the other suites
      await fetch(`${baseURL}/api/device/Device/update`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ deviceId: id, deviceName: 'Truck 12 tracker', remark: '' }),
      });
    }
  });

  it('counts alice\'s devices on the home page and opens the list from a tile', async () => {
    await signIn();
    await page.getByTestId('home-counts').waitFor();
    await expect.poll(() => page.getByTestId('home-count-total').textContent()).toMatch(/^6/);
    await expect(page.getByTestId('home-count-expired').textContent()).resolves.toMatch(/^1/);
    const online = Number((await page.getByTestId('home-count-online').textContent())?.match(/^\d+/)?.[0]);
    const offline = Number((await page.getByTestId('home-count-offline').textContent())?.match(/^\d+/)?.[0]);
    const never = Number((await page.getByTestId('home-count-notEnabled').textContent())?.match(/^\d+/)?.[0]);
    expect(online + offline + never).toBe(6);
    await quietShot('home-counts');

    await page.getByTestId('home-count-expired').click();
    await page.waitForURL(/\/device\/list\?service=expired$/);
    await expect.poll(rowNames).toEqual(['Vaccine fridge logger']);
  });
});
