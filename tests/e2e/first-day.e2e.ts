/**
 * A new customer's first day in a real browser, against a console set up as production runs it
 * (fleet.ts: Mosquitto with a login per device, `coldchain serve`, a `coldchain ingest` worker):
 * she signs up with the code sent to her phone, adds her logger by GUID, connects it with the
 * broker login the console shows once, sets its limits, buys SMS for it, and sees an excursion
 * become an alarm in her message centre with one SMS taken from the logger's count. The logger
 * cannot log in without its password. Screenshots go to var/screenshots/ (first-day-*).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserSession, chooseOption, readLocale, shot } from './browser';
import { devicePublish, lastCode, startFleetConsole, type FleetConsole } from './fleet';

const session = browserSession({ viewport: { width: 1440, height: 900 } });
let fleet: FleetConsole;

beforeAll(async () => {
  fleet = await startFleetConsole(inject('webDist'));
});
afterAll(async () => {
  await fleet?.stop();
});

const PHONE = '13912345670';
const GUID = 'NINA0000000001';
const MINUTE = 60_000;

describe("a new customer's first day", () => {
  it('signs up, connects her logger with its own login, sets limits and gets an alarm with an SMS', async () => {
    const auth = readLocale('auth/locales', 'en-US');
    const t = readLocale('devices/locales', 'en-US');
    const page = session.page;
    let authorization = '';
    page.on('request', (request) => {
      authorization = request.headers()['authorization'] ?? authorization;
    });
    const { baseURL } = fleet;

    // Sign up with the code sent to her phone.
    await page.addInitScript(() => localStorage.setItem('jc__language', JSON.stringify({ value: 'en-US' })));
    await page.goto(`${baseURL}/user/register`);
    await page.fill('#userName', 'nina_01');
    await page.fill('#phone', PHONE);
    await page.getByRole('button', { name: auth.code.send }).click();
    await expect.poll(() => { try { return lastCode(fleet.database, PHONE); } catch { return ''; } }).toMatch(/^\d+$/);
    await page.fill('#code', lastCode(fleet.database, PHONE));
    await page.fill('#accountPassword', 'Fresh#Pass2026');
    await page.fill('#confirmPassword', 'Fresh#Pass2026');
    await page.click('button[type=submit]');
    await page.waitForURL((url) => !url.pathname.startsWith('/user/'));
    // A new account is asked who it is before anything else.
    const identity = page.getByTestId('identity-dialog');
    await identity.waitFor();
    for (const select of await identity.locator('select').all()) await select.selectOption({ index: 1 });
    await identity.locator('button[type=submit]').click();
    await identity.waitFor({ state: 'detached' });
    // Then the platform's notice, which she closes for good.
    const notice = page.getByTestId('notice-dialog');
    await notice.waitFor();
    await notice.getByRole('checkbox').check();
    await notice.getByRole('button').last().click();
    await notice.waitFor({ state: 'detached' });

    // Her device list is empty; she adds the logger by the GUID printed on it.
    await page.goto(`${baseURL}/device/list`);
    await page.getByTestId('device-list-empty').waitFor();
    await page.getByTestId('device-add').click();
    await page.getByTestId('add-deviceGuid').fill(GUID);
    await page.getByTestId('add-deviceName').fill('Vaccine fridge');
    await chooseOption(page.getByTestId('add-typeId'), /^RCW-360/);
    await page.getByTestId('add-submit').click();
    await page.getByTestId('login-password').waitFor();
    const username = await page.getByTestId('login-username').inputValue();
    const password = await page.getByTestId('login-password').inputValue();
    expect(username).toBe(GUID);
    expect(await page.getByTestId('login-connection').textContent()).toContain(String(fleet.devicePort));
    await shot(page, 'first-day-login-en-US');
    await page.getByTestId('login-done').click();

    // The logger connects with that login; a wrong password is refused.
    const topic = `devices/${GUID}/telemetry`;
    expect(devicePublish(fleet.devicePort, GUID, 'not-its-password', topic, { ts: new Date().toISOString(), t: 1 })).not.toBe('accepted');
    const reading = { ts: new Date(Date.now() - 10 * MINUTE).toISOString(), t: 5.0, seq: 1 };
    expect(devicePublish(fleet.devicePort, username, password, topic, reading)).toBe('accepted');
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${baseURL}/api${path}`, { ...init, headers: { authorization, 'content-type': 'application/json' } })
        .then((r) => r.json());
    const listed = () => api('/device/Device/page', { method: 'POST', body: JSON.stringify({ start: 1, pageSize: 10 }) });
    await expect
      .poll(async () => (await listed()).data.data[0].temperature, { timeout: 20_000, message: fleet.logs() })
      .toBe(5);
    const row = page.locator(`[data-testid=device-row][data-device-name="Vaccine fridge"]`);
    await row.waitFor();
    await row.getByTestId('device-link').click();
    await page.getByTestId('device-detail-page').waitFor();
    await expect.poll(() => page.getByTestId('probe-t-value').textContent(), { timeout: 20_000 }).toContain('5.0');

    // Limits 2-8 °C, alerting her by SMS at once.
    await page.getByTestId('device-tab-push').click();
    const card = page.getByTestId('alarm-rule-t');
    await card.waitFor();
    await card.getByLabel(t.alarmSettings.field.lowerLimit).fill('2');
    await card.getByLabel(t.alarmSettings.field.upperLimit).fill('8');
    await card.getByTestId('rule-t-add-recipient').click();
    const recipient = card.getByTestId('rule-t-recipient-0');
    await recipient.getByLabel(t.alarmSettings.recipient.name).fill('Nina');
    await recipient.getByLabel(t.alarmSettings.recipient.phone).fill(PHONE);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/device/DeviceAlarmRule/insert'));
    await card.getByTestId('rule-t-save').click();
    expect((await saved).status()).toBe(200);

    // 100 SMS for the logger, paid through the development gateway (its QR code is the payment).
    const deviceId = (await listed()).data.data[0].deviceId;
    const packages = await api('/payment/PaySmsPackages/selectSmsPackage?countryCode=86');
    const sms100 = packages.data.smsList.find((p: { smsCount: number }) => p.smsCount === 100);
    const order = await api('/payment/PayOrder/createSmsOrder', {
      method: 'POST',
      body: JSON.stringify({
        applyFlag: 0, deviceId, payType: 1, smsPackageId: sms100.packageId, smsCount: 100, smsFee: sms100.packageFee,
        voicePackageId: null, voiceCount: 0, voiceFee: 0, totalFee: sms100.packageFee, countryCode: '86',
      }),
    });
    expect(order.code).toBe(0);
    const link = new URL(order.data.payQrCode); // the console's own address, as PUBLIC_BASE_URL gives it
    const paid = await fetch(`${baseURL}${link.pathname}${link.search}`).then((r) => r.json());
    expect(paid.data).toEqual({ payStatus: 2 });

    // Six minutes at 9.5 °C, uploaded as one batch.
    const now = Date.now();
    const readings = Array.from({ length: 7 }, (_, m) => ({ ts: new Date(now - (7 - m) * MINUTE).toISOString(), t: 9.5, seq: 10 + m }));
    expect(devicePublish(fleet.devicePort, username, password, topic, { readings })).toBe('accepted');

    await page.goto(`${baseURL}/message/list`);
    const alarm = page.getByTestId('alarm-row').first();
    await alarm.waitFor({ timeout: 20_000 });
    expect(await alarm.textContent()).toContain('Vaccine fridge');
    await expect.poll(() => page.getByTestId('message-bell-count').textContent()).toBe('1');
    await shot(page, 'first-day-alarm-en-US');

    await page.goto(`${baseURL}/device/list`);
    await row.getByTestId('device-link').click();
    await page.getByTestId('device-tab-info').click();
    await expect.poll(() => page.getByTestId('info-sms').textContent()).toContain('99');
  });
});
