/**
 * The message centre in a real browser against `coldchain serve` with demo data; nothing is stood
 * in. `coldchain demo-seed` raises alice's three alarms through the real ingest path:
 *   - Vaccine fridge logger (RCW360A0000003): above 8 °C, level 3, still going on, untreated;
 *   - Cold room B logger (RCW360A0000002): above 8 °C, level 1, ended, untreated;
 *   - Cold room A logger (RCW360A0000001): below 2 °C, level 2, ended, approved by alice.
 * The files of the suite share one server and database, and the tests of this file run in order:
 * everything that only looks comes first, the one test that handles an alarm (the fridge's) last,
 * and whatever a test changes besides (Cold room B shown in °F) it puts back.
 * Screenshots go to var/screenshots/ (messages.png, message-deal.png, messages-en.png and more).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { DEMO_PASSWORD, launch, logIn, shot, watchPolicies } from './browser';

const baseURL = inject('baseURL');
const strings = (lang: string) =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../web/src/features/messages/locales/${lang}.json`, import.meta.url)), 'utf8'),
  );
const zh = strings('zh-CN');
const en = strings('en-US');
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/{{(\w+)}}/g, (_, key: string) => String(values[key]));

const FRIDGE = 'Vaccine fridge logger';
const ROOM_A = 'Cold room A logger';
const ROOM_B = 'Cold room B logger';
const SEEDED_RESULT = '门已关好，压缩机已复位';

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let policyProblems: string[];
/** The bodies of every DeviceAlarm/deal the page sent (watched, not intercepted). */
let deals: unknown[];

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  policyProblems = await watchPolicies(context);
  page = await context.newPage();
  errors = [];
  deals = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    if (isCall('/device/DeviceAlarm/deal')(request)) deals.push(request.postDataJSON());
  });
});
afterEach(async () => {
  await context?.close();
  expect(errors).toEqual([]);
  expect(policyProblems).toEqual([]);
});

const isCall = (path: string, method = 'POST') => (request: Request) =>
  request.url().endsWith(`/api${path}`) && request.method() === method;
const isAlarmPage = isCall('/device/DeviceAlarm/page');

/** Logs alice in and closes the seeded notice (tick "don't remind again", close). */
async function signIn(language: string): Promise<void> {
  await logIn(page, baseURL, 'alice', language);
  const dialog = page.getByTestId('notice-dialog');
  await dialog.waitFor({ timeout: 10_000 });
  await dialog.getByRole('checkbox').check();
  await dialog.locator('.bp6-dialog-footer-actions button').click();
  await dialog.waitFor({ state: 'detached' });
}

/** A screenshot once the toasts (alice's expiry reminder, "handled") have gone. */
async function quietShot(name: string): Promise<void> {
  await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
  await shot(page, name);
}

/** Opens the handling dialog of a row, once it has faded in (Blueprint marks its overlay "enter-done"). */
async function openDeal(row: Locator): Promise<Locator> {
  await row.getByTestId('alarm-deal').click();
  const dialog = page.getByTestId('deal-dialog');
  await dialog.waitFor();
  await page.locator('.bp6-overlay-enter-done').filter({ has: page.getByTestId('deal-dialog') }).first().waitFor();
  return dialog;
}

const rows = () => page.getByTestId('alarm-row');
const rowOf = (device: string) => page.locator(`[data-testid="alarm-row"][data-device-name="${device}"]`);
const rowNames = () => rows().evaluateAll((els) => els.map((el) => el.getAttribute('data-device-name')).sort());
const text = (locator: Locator) => locator.textContent();
/** Value, limit and extreme of a row, as shown. */
const values = (row: Locator) =>
  Promise.all(['alarm-value', 'alarm-limit', 'alarm-extreme'].map((cell) => row.getByTestId(cell).textContent()));

/** Clicks a state of the filter and returns the list call it made. */
async function showState(name: string): Promise<Record<string, unknown>> {
  const [request] = await Promise.all([
    page.waitForRequest(isAlarmPage),
    page.getByRole('radio', { name, exact: true }).click(),
  ]);
  return request.postDataJSON() as Record<string, unknown>;
}

/** A bearer token of alice's for direct calls to the server. */
async function aliceToken(): Promise<string> {
  const response = await fetch(`${baseURL}/api/base/BaseAccount/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userName: 'alice', accountPassword: DEMO_PASSWORD, loginType: 1 }),
  });
  const body = (await response.json()) as { code: number; data: { token: string } };
  expect(body.code).toBe(0);
  return body.data.token;
}

interface ServerAlarm {
  id: number;
  deviceId: number;
  deviceName: string;
  state: number;
}

/** Alice's alarm messages as the server has them now. */
async function serverAlarms(token: string): Promise<ServerAlarm[]> {
  const response = await fetch(`${baseURL}/api/device/DeviceAlarm/page`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ start: 1, pageSize: 50 }),
  });
  return ((await response.json()) as { data: { data: ServerAlarm[] } }).data.data;
}

async function alarmOf(token: string, device: string): Promise<ServerAlarm> {
  const alarm = (await serverAlarms(token)).find((a) => a.deviceName === device);
  if (!alarm) throw new Error(`the demo seed raised no alarm on ${device}`);
  return alarm;
}

async function updateDevice(token: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${baseURL}/api/device/Device/update`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

describe('the message centre on the demo alarms', () => {
  it('lists alice’s alarms in Chinese and filters them by state and device', async () => {
    await signIn('zh-CN');
    const bell = page.getByTestId('message-bell');
    await expect.poll(() => bell.getAttribute('data-count')).toBe('2');
    await expect(text(page.getByTestId('message-bell-count'))).resolves.toBe('2');

    // the bell leads to the untreated ones: the fridge (still too warm) and cold room B
    const [first] = await Promise.all([page.waitForRequest(isAlarmPage), bell.click()]);
    expect(first.postDataJSON()).toEqual({ start: 1, pageSize: 10, state: 0 });
    await page.waitForURL(/\/message\/list\?state=0$/);
    await expect.poll(rowNames).toEqual([ROOM_B, FRIDGE]);
    const fridge = rowOf(FRIDGE);
    await expect(text(fridge)).resolves.toContain('RCW360A0000003');
    await expect(text(fridge.getByTestId('alarm-kind'))).resolves.toBe(zh.kind.above);
    await expect(fridge.getByTestId('alarm-level').getAttribute('data-level')).resolves.toBe('3');
    await expect(text(fridge)).resolves.toContain(zh.time.ongoing);
    await expect(values(fridge)).resolves.toEqual(['11.7 °C', '8.0 °C', '11.7 °C']); // °C, one decimal: as the device shows
    await expect(text(fridge.getByTestId('alarm-state'))).resolves.toBe(zh.state.untreated);
    await expect(fridge.getByTestId('alarm-deal').isEnabled()).resolves.toBe(true);
    const roomB = rowOf(ROOM_B);
    await expect(roomB.getByTestId('alarm-level').getAttribute('data-level')).resolves.toBe('1');
    await expect(text(roomB)).resolves.not.toContain(zh.time.ongoing);

    // all of them: cold room A froze once, and alice has approved that already
    expect(await showState(zh.filter.all)).toEqual({ start: 1, pageSize: 10 });
    await page.waitForURL(/\/message\/list$/);
    await expect.poll(rowNames).toEqual([ROOM_A, ROOM_B, FRIDGE]);
    const roomA = rowOf(ROOM_A);
    await expect(text(roomA.getByTestId('alarm-kind'))).resolves.toBe(zh.kind.below);
    await expect(values(roomA)).resolves.toEqual(['0.6 °C', '2.0 °C', '0.6 °C']);
    await expect(text(roomA.getByTestId('alarm-state'))).resolves.toBe(zh.state.treated);
    const handled = roomA.getByTestId('alarm-handled');
    await expect(text(handled)).resolves.toContain(zh.handled.approved);
    await expect(text(handled)).resolves.toContain(SEEDED_RESULT);
    await expect(text(roomA.getByTestId('alarm-handled-by'))).resolves.toBe(fill(zh.handled.by, { name: 'alice' }));
    await expect(roomA.getByTestId('alarm-deal').count()).resolves.toBe(0);
    await expect(text(page.getByRole('tab', { name: new RegExp(zh.tabs.alarms) }))).resolves.toContain('2');
    await quietShot('messages');

    // treated: that one only; untreated: the other two
    expect(await showState(zh.filter.treated)).toEqual({ start: 1, pageSize: 10, state: 1 });
    await page.waitForURL(/\/message\/list\?state=1$/);
    await expect.poll(rowNames).toEqual([ROOM_A]);
    await page.getByRole('radio', { name: zh.filter.untreated, exact: true }).click(); // asked before: may come from the cache
    await page.waitForURL(/\/message\/list\?state=0$/);
    await expect.poll(rowNames).toEqual([ROOM_B, FRIDGE]);

    // the device filter searches alice's real devices by name
    await page.getByTestId('device-filter').click();
    await page.getByPlaceholder(zh.filter.searchDevice).fill('vaccine');
    const option = page.getByTestId('device-option').filter({ hasText: FRIDGE });
    await option.waitFor();
    // all devices, and the one matching (the page size's options are no device options)
    await expect.poll(() => page.getByTestId('device-option').count()).toBe(2);
    await shot(page, 'messages-device-filter');
    const [narrowed] = await Promise.all([page.waitForRequest(isAlarmPage), option.click()]);
    const body = narrowed.postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({ start: 1, pageSize: 10, state: 0 });
    expect(body.deviceId).toEqual(expect.any(Number));
    await page.waitForURL(/state=0&deviceId=\d+&device=Vaccine\+fridge\+logger$/);
    await expect(text(page.getByTestId('device-filter'))).resolves.toContain(FRIDGE);
    await expect.poll(rowNames).toEqual([FRIDGE]);

    // cold room A's only alarm is handled: nothing untreated there
    await page.getByTestId('device-filter').click();
    await page.getByPlaceholder(zh.filter.searchDevice).fill('cold room a');
    await page.getByTestId('device-option').filter({ hasText: ROOM_A }).click();
    await page.getByTestId('messages-empty').waitFor();
    await expect(text(page.getByTestId('messages-empty'))).resolves.toContain(zh.empty.filtered);
    await quietShot('messages-empty');
  });

  it('reads in English, in °F for a device that shows °F, and refuses a long result before asking', async () => {
    const token = await aliceToken();
    const roomB = await alarmOf(token, ROOM_B);
    await updateDevice(token, { deviceId: roomB.deviceId, temperatureUnit: 'F', displayPrecision: 2 });
    try {
      await signIn('en-US');
      await page.goto(`${baseURL}/message/list`);
      await page.getByTestId('alarm-table').waitFor();
      await expect.poll(rowNames).toEqual([ROOM_A, ROOM_B, FRIDGE]);
      await expect(text(page.getByRole('columnheader', { name: en.column.extreme, exact: true }))).resolves.toBe(en.column.extreme);
      // 9.3 °C and 8 °C in °F with two decimals; the other devices stay in °C
      await expect(values(rowOf(ROOM_B))).resolves.toEqual(['48.74 °F', '46.40 °F', '48.74 °F']);
      await expect(values(rowOf(FRIDGE))).resolves.toEqual(['11.7 °C', '8.0 °C', '11.7 °C']);
      await expect(text(rowOf(FRIDGE).getByTestId('alarm-kind'))).resolves.toBe(en.kind.above);
      await expect(text(rowOf(FRIDGE).getByTestId('alarm-level'))).resolves.toBe(fill(en.level.label, { level: 3 }));
      await expect(text(rowOf(ROOM_A).getByTestId('alarm-kind'))).resolves.toBe(en.kind.below);
      await expect(text(rowOf(ROOM_A).getByTestId('alarm-handled'))).resolves.toContain(en.handled.approved);
      await expect(text(rowOf(ROOM_A).getByTestId('alarm-handled-by'))).resolves.toBe(fill(en.handled.by, { name: 'alice' }));
      await quietShot('messages-en');

      const dialog = await openDeal(rowOf(ROOM_B));
      await expect(text(dialog.getByTestId('deal-summary'))).resolves.toContain('48.74 °F');
      await dialog.getByTestId('deal-refuse').click();
      await dialog.getByTestId('deal-result').fill('Sensor was being cleaned and the reading is not real at all.');
      await dialog.getByTestId('deal-submit').click();
      await dialog.getByText(fill(en.deal.resultTooLong, { max: 50 })).waitFor();
      await expect(text(dialog.getByTestId('deal-counter'))).resolves.toBe('60 / 50');
      await expect(dialog.getByTestId('deal-result').getAttribute('aria-invalid')).resolves.toBe('true');
      await shot(page, 'message-deal-en');
      expect(deals).toEqual([]); // refused before asking the server
      await dialog.getByRole('button', { name: en.deal.cancel, exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect(text(rowOf(ROOM_B).getByTestId('alarm-state'))).resolves.toBe(en.state.untreated);
    } finally {
      // leave the demo as it was for the other tests
      await updateDevice(token, { deviceId: roomB.deviceId, temperatureUnit: 'C', displayPrecision: 1 });
    }
  });

  it('has the server refuse a result over 50 characters under its field, in the caller’s language', async () => {
    const token = await aliceToken();
    const fridge = await alarmOf(token, FRIDGE);
    const deal = (language: string) =>
      fetch(`${baseURL}/api/device/DeviceAlarm/deal`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Accept-Language': language },
        body: JSON.stringify({ id: fridge.id, handling: 1, result: '冷'.repeat(51) }),
      });
    const chinese = await deal('zh-CN');
    expect(chinese.status).toBe(422);
    const zhBody = (await chinese.json()) as { code: number; errors: Record<string, string[]> };
    expect(zhBody.code).toBe(422);
    expect(Object.keys(zhBody.errors)).toEqual(['result']);
    expect(zhBody.errors.result?.[0]).toMatch(/[\u4e00-\u9fa5]/);
    expect(zhBody.errors.result?.[0]).toContain('50');
    const english = (await (await deal('en-US')).json()) as { errors: Record<string, string[]> };
    expect(english.errors.result?.[0]).toMatch(/50/);
    expect(english.errors.result?.[0]).not.toMatch(/[\u4e00-\u9fa5]/);
    // nothing was handled
    await expect(alarmOf(token, FRIDGE)).resolves.toMatchObject({ state: 0 });
  });

  it('fits a phone, the bell and the handling dialog included', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn('zh-CN');
    await expect.poll(() => text(page.getByTestId('message-bell-count'))).toBe('2');
    await page.getByTestId('message-bell').click();
    await page.waitForURL(/\/message\/list\?state=0$/);
    await expect.poll(rowNames).toEqual([ROOM_B, FRIDGE]);
    // the table scrolls inside its card; the page itself does not grow sideways
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
    await page.mouse.move(200, 700); // no tooltip left on the bell
    await quietShot('messages-mobile');

    const dialog = await openDeal(rowOf(FRIDGE));
    const box = await page.locator('.jc-msg-deal-dialog').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await shot(page, 'message-deal-mobile');
    await dialog.getByRole('button', { name: zh.deal.cancel, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(deals).toEqual([]);
  });

  // Last: it handles the fridge's alarm for good.
  it('handles the fridge alarm in Chinese: too long is refused, then approved; the row turns treated and the badge drops', async () => {
    await signIn('zh-CN');
    const bell = page.getByTestId('message-bell');
    await expect.poll(() => bell.getAttribute('data-count')).toBe('2');
    await bell.click();
    await page.waitForURL(/\/message\/list\?state=0$/);
    await expect.poll(rowNames).toEqual([ROOM_B, FRIDGE]);

    const dialog = await openDeal(rowOf(FRIDGE));
    await expect(text(dialog.getByTestId('deal-summary'))).resolves.toContain(FRIDGE);
    await expect(text(dialog.getByTestId('deal-summary'))).resolves.toContain('11.7 °C');
    await dialog.getByTestId('deal-approve').click();
    await dialog.getByTestId('deal-result').fill('冷'.repeat(51));
    await dialog.getByTestId('deal-submit').click();
    await dialog.getByText(fill(zh.deal.resultTooLong, { max: 50 })).waitFor();
    await expect(text(dialog.getByTestId('deal-counter'))).resolves.toBe('51 / 50');
    await quietShot('message-deal-too-long');
    expect(deals).toEqual([]);

    const result = '门已关好，疫苗已转移到备用冰箱';
    await dialog.getByTestId('deal-result').fill(result);
    await expect.poll(() => dialog.getByText(fill(zh.deal.resultTooLong, { max: 50 })).count()).toBe(0);
    await expect(dialog.getByTestId('deal-result').getAttribute('aria-invalid')).resolves.toBeNull();
    await page.waitForTimeout(300); // the field's red outline fades out
    await quietShot('message-deal');
    const [answer] = await Promise.all([
      page.waitForResponse((response) => isCall('/device/DeviceAlarm/deal')(response.request())),
      dialog.getByTestId('deal-submit').click(),
    ]);
    expect(answer.status()).toBe(200);
    expect((await answer.json()).data).toMatchObject({ state: 1, handling: 1, result, handledBy: 'alice' });
    await dialog.waitFor({ state: 'detached' });
    expect(deals).toEqual([{ id: expect.any(Number), handling: 1, result }]);

    // untreated: only cold room B is left, and the bell says 1
    await expect.poll(rowNames).toEqual([ROOM_B]);
    await expect.poll(() => bell.getAttribute('data-count')).toBe('1');
    await expect(text(page.getByTestId('message-bell-count'))).resolves.toBe('1');
    await expect(bell.getAttribute('aria-label')).resolves.toContain('1');

    // treated: the fridge, handled by alice, and cold room A from the seed
    await showState(zh.filter.treated);
    await expect.poll(rowNames).toEqual([ROOM_A, FRIDGE]);
    const fridge = rowOf(FRIDGE);
    await expect(text(fridge.getByTestId('alarm-state'))).resolves.toBe(zh.state.treated);
    await expect(text(fridge.getByTestId('alarm-handled'))).resolves.toContain(zh.handled.approved);
    await expect(text(fridge.getByTestId('alarm-handled'))).resolves.toContain(result);
    await expect(text(fridge.getByTestId('alarm-handled-by'))).resolves.toBe(fill(zh.handled.by, { name: 'alice' }));
    await expect(fridge.getByTestId('alarm-deal').count()).resolves.toBe(0); // handled once only
    await quietShot('messages-treated');

    // and the server agrees
    const token = await aliceToken();
    await expect(alarmOf(token, FRIDGE)).resolves.toMatchObject({ state: 1 });
  });

  // After the fridge: cold room B, the last untreated alarm, is deferred (not handled).
  it('defers cold room B for 4 hours: it shows until when, leaves the badge, and lists its deferral', async () => {
    const zhDefer = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../web/src/features/messages/deferLocales/zh-CN.json', import.meta.url)), 'utf8'),
    ).defer as { filter: string; state: string; choice: Record<string, string> };
    await signIn('zh-CN');
    const bell = page.getByTestId('message-bell');
    await expect.poll(() => bell.getAttribute('data-count')).toBe('1');
    await page.goto(`${baseURL}/message/list?state=0`);
    await expect.poll(rowNames).toEqual([ROOM_B]);

    const dialog = await openDeal(rowOf(ROOM_B));
    await expect(dialog.getByTestId('defer-delay').count()).resolves.toBe(0);
    await dialog.getByTestId('deal-defer').click();
    const delays = dialog.getByTestId('defer-delay').getByRole('radio');
    await expect(delays.allTextContents()).resolves.toEqual(['15', '60', '240', '1440'].map((m) => zhDefer.choice[m]));
    await dialog.getByRole('radio', { name: zhDefer.choice['240'], exact: true }).click();
    await dialog.getByTestId('deal-result').fill('等待维修人员');
    await expect(text(dialog.getByTestId('defer-back-at'))).resolves.toContain('恢复为未处理');
    await quietShot('message-defer');
    const [answer] = await Promise.all([
      page.waitForResponse((response) => isCall('/device/DeviceAlarm/deal')(response.request())),
      dialog.getByTestId('deal-submit').click(),
    ]);
    expect(answer.status()).toBe(200);
    const deferred = (await answer.json()).data as { state: number; deferredUntil: string; deferralCount: number };
    expect(deferred).toMatchObject({ state: 2, handling: null, deferralCount: 1 });
    const hours = (Date.parse(deferred.deferredUntil) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(3.9);
    expect(hours).toBeLessThanOrEqual(4);
    await dialog.waitFor({ state: 'detached' });
    expect(deals).toEqual([{ id: expect.any(Number), handling: 3, result: '等待维修人员', deferMinutes: 240 }]);

    // no longer untreated: the bell says nothing; under "deferred" it shows until when
    await expect.poll(() => bell.getAttribute('data-count')).toBe('0');
    await expect.poll(() => rows().count()).toBe(0);
    await showState(zhDefer.filter);
    await expect.poll(rowNames).toEqual([ROOM_B]);
    const room = rowOf(ROOM_B);
    await expect(text(room.getByTestId('alarm-state'))).resolves.toContain(zhDefer.state);
    await expect(room.getByTestId('alarm-deal').isEnabled()).resolves.toBe(true); // it may still be handled
    await room.getByTestId('alarm-deferrals').click();
    const history = page.getByTestId('deferral-history');
    await history.waitFor();
    await expect(text(history.getByTestId('deferral'))).resolves.toContain('等待维修人员');
    await expect(text(history.getByTestId('deferral'))).resolves.toContain('alice');
    await quietShot('messages-deferral-history');
    await page.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });
    await quietShot('messages-deferred');
    await expect(alarmOf(await aliceToken(), ROOM_B)).resolves.toMatchObject({ state: 2 });
  });
});
