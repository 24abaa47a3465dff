/**
 * The receiver's public pages and the geofence page in a real browser against `coldchain serve`
 * with demo data. As alice (by API) a waybill with her freezer, planned to have started two days
 * ago so the server's job starts it over readings it already has, and a share link. A stranger (no
 * login) finds it by number on the desktop quick query and sees its state but none of the
 * parties' phones or addresses; on a 375 px phone the share link shows the chart and hands over
 * the PDF; a made-up number gets the neutral answer. Alice makes a circle fence by typing its
 * centre and radius, sees it listed and deletes it. In English and Russian; screenshots go to
 * var/screenshots/. What the suite made is deleted afterwards, by API, even when a test fails.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, logInPastNotice, preferLanguage, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const LANGUAGES = ['en-US', 'ru-RU'] as const;
const DEVICE = 'Pharmacy freezer';
const RUN = Date.now().toString(36).toUpperCase();
const NUMBER = `QQ-${RUN}`;
const SECRET_PHONE = '13912345678';
const SECRET_ADDRESS = '17 Hidden Harbour Road';
const FENCE_PREFIX = `Depot ${RUN.slice(-5)}`;
// The server's job starts waybills whose planned start has come once a minute.
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const START_WAIT_MS = 150_000;

type Json = Record<string, unknown>;
const made: { waybillId?: number } = {};
let token = '';

async function call(headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<Json> {
  const send = () => fetch(`${baseURL}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  // A kept-alive connection the server closed while the poll slept fails once: asked again on a new one.
  const response = await send().catch(send);
  const answer = (await response.json()) as Json;
  if (answer.code !== 0) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer.data as Json;
}

const asAlice = <T,>(fn: (headers: Record<string, string>) => Promise<T>) => asUser(baseURL, 'alice', 'en-US', fn);
const noHorizontalScroll = async (page: typeof session.page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

beforeAll(async () => {
  await asAlice(async (headers) => {
    const devices = await call(headers, 'POST', '/device/Device/page', { start: 1, pageSize: 10, deviceName: DEVICE });
    const device = (devices.data as Json[]).find((d) => d.deviceName === DEVICE);
    if (!device) throw new Error(`alice has no ${DEVICE}`);
    const startTime = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const waybill = await call(headers, 'POST', '/device/Waybill/insert', {
      orderNum: NUMBER, goodsName: 'Insulin pens', upperLimit: -15, lowerLimit: -25, startTime,
      senderName: 'North Pharma', senderPhone: SECRET_PHONE, senderAddress: SECRET_ADDRESS,
      receiverName: 'City Clinic', receiverPhone: SECRET_PHONE, receiverAddress: SECRET_ADDRESS,
    });
    made.waybillId = waybill.id as number;
    await call(headers, 'POST', '/device/Waybill/batchBind', { id: made.waybillId, deviceIds: [device.deviceId] });
    const deadline = Date.now() + START_WAIT_MS;
    let state = 0;
    while (state === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      state = (await call(headers, 'GET', `/device/Waybill/get?id=${made.waybillId}`)).state as number;
    }
    expect(state, 'the job started the waybill at its planned start').toBe(1);
    token = (await call(headers, 'POST', '/device/Waybill/share', { id: made.waybillId, validity: '1d' })).token as string;
  });
}, START_WAIT_MS + 30_000);

afterAll(async () => {
  await asAlice(async (headers) => {
    if (made.waybillId) await call(headers, 'DELETE', `/device/Waybill/delete?id=${made.waybillId}`).catch(() => undefined);
    const fences = await call(headers, 'POST', '/device/DeviceFence/page', { start: 1, pageSize: 100 });
    for (const fence of fences.data as Json[]) {
      if (String(fence.name).startsWith(FENCE_PREFIX)) await call(headers, 'DELETE', `/device/DeviceFence/delete?id=${fence.id}`);
    }
  });
});

describe('the public quick query', () => {
  for (const language of LANGUAGES) {
    it(`a stranger finds the waybill by number on a desktop: its state, no phone nor address (${language})`, async () => {
      const { page } = session;
      const strings = readLocale('quickquery/locales', language);
      await page.setViewportSize({ width: 1280, height: 900 });
      await preferLanguage(page, language);
      await page.goto(`${baseURL}/pcQuick/waybill?id=${encodeURIComponent(NUMBER)}`);
      const row = page.getByTestId('quick-trip');
      await row.waitFor();
      await expect.poll(() => row.textContent()).toContain(strings.state['1']);
      await shot(page, `quick-query-search-${language}`);
      await row.click();
      await page.getByTestId('trip-view').waitFor();
      expect(await page.getByTestId('trip-state').textContent()).toBe(strings.state['1']);
      await page.getByTestId('trip-chart').waitFor();
      const text = (await page.locator('body').textContent()) ?? '';
      expect(text).toContain(NUMBER);
      expect(text).not.toContain(SECRET_PHONE);
      expect(text).not.toContain(SECRET_ADDRESS);
      await shot(page, `quick-query-detail-${language}`);
    });

    it(`the share link on a 375 px phone shows the chart and hands over the PDF (${language})`, async () => {
      const { page } = session;
      await page.setViewportSize({ width: 375, height: 812 });
      await preferLanguage(page, language);
      await page.goto(`${baseURL}/mobileQuick/query/detail?share=${encodeURIComponent(token)}`);
      await page.getByTestId('trip-chart').locator('canvas').first().waitFor();
      expect(await page.getByTestId('trip-number').textContent()).toBe(NUMBER);
      expect(await page.locator('body').textContent()).not.toContain(SECRET_PHONE);
      await shot(page, `quick-query-shared-${language}-375`);
      expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('trip-pdf').click()]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/i);
    });
  }

  it('a made-up number gets the neutral answer on the phone page (375 px)', async () => {
    const strings = readLocale('quickquery/locales', 'en-US');
    // A phone's browser: the guard sends it from the desktop path to the mobile one.
    const phone = await session.context.browser()!.newContext({
      viewport: { width: 375, height: 812 }, userAgent: IPHONE, locale: 'en-US',
    });
    try {
      const page = await phone.newPage();
      await preferLanguage(page, 'en-US');
      await page.goto(`${baseURL}/pcQuick/waybill?id=NO-SUCH-${RUN}`);
      await page.waitForURL((url) => url.pathname === '/mobileQuick/waybill');
      await page.getByTestId('quick-not-found').waitFor();
      expect(await page.getByTestId('quick-not-found').textContent()).toContain(strings.notFound);
      expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
      await shot(page, 'quick-query-not-found-en-US-375');
    } finally {
      await phone.close();
    }
  });
});

describe('the geofence page', () => {
  for (const language of LANGUAGES) {
    it(`alice makes a circle fence by typing it, sees it listed and deletes it (${language})`, async () => {
      const { page } = session;
      const strings = readLocale('geofence/locales', language);
      const name = `${FENCE_PREFIX} ${language.slice(0, 2)}`;
      await page.setViewportSize({ width: 1280, height: 900 });
      await logInPastNotice(page, baseURL, 'alice', language);
      await page.goto(`${baseURL}/waybill/geofence`);
      await page.getByTestId('geofence-page').waitFor();
      await page.getByTestId('fence-add').click();
      await page.getByTestId('fence-save').click();
      await page.getByText(strings.error.name).waitFor();
      await page.getByTestId('fence-name').fill(name);
      await page.getByTestId('area-lat-0').fill('31.2304');
      await page.getByTestId('area-lon-0').fill('121.4737');
      await page.getByTestId('area-radius-0').fill('800');
      await page.locator('.jc-fence-map path.leaflet-interactive').first().waitFor();
      await shot(page, `geofence-dialog-${language}`);
      await page.getByTestId('fence-save').click();
      const row = page.getByTestId('fence-row').filter({ hasText: name });
      await row.waitFor();
      await shot(page, `geofence-list-${language}`);
      await row.getByTestId('fence-delete').click();
      await page.getByTestId('fence-delete-confirm').waitFor();
      await page.getByRole('alertdialog').getByRole('button', { name: strings.delete }).click();
      await expect.poll(async () => row.count()).toBe(0);
    });
  }
});
