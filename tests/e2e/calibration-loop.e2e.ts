/**
 * The calibration loop end to end (issue 21's "done when"), on a domestic console of its own whose
 * payment providers are the real adapters against the local payment sandbox (APP_ENV=development,
 * PAYMENT_BACKEND=providers, as the suite's international console is):
 *
 * a customer without an account, in a 375 px phone browser, orders the calibration of two loggers
 * typed by serial number (one is alice's cold room B logger, whose GUID is printed on it), pays on
 * Alipay's mobile page in the sandbox and comes back to "payment received"; the lab receives the
 * loggers, records the results (the second adjusted: as found and as left) and issues both
 * certificates; the customer opens the application on the phone and saves both certificate PDFs;
 * alice's console shows her logger's new calibration and the due date its reminders count from.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, chooseOption, logInPastNotice, preferLanguage, shot } from './browser';
import { cleanEnv, COMMON, freePort, run, start, stop, waitForOk, type Served } from './server';

const session = browserSession();
const ROOM_B = 'RCW360A0000002';
const OTHER = 'SN-LOOP-0002';
let baseURL = '';
let work = '';
let served: Served | null = null;

type Headers = Record<string, string>;

async function call<T>(headers: Headers, method: string, path: string, body?: unknown): Promise<T> {
  const reply = await fetch(`${baseURL}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await reply.json()) as { code: number; data: T; msg: string };
  expect(answer.code, `${method} ${path}: ${answer.msg}`).toBe(0);
  return answer.data;
}

/** The results the lab records for a logger calibrated yesterday; `adjusted`: found out of tolerance at -20 °C. */
function results(serial: string, adjusted: boolean) {
  const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
  const found = [{ reference: '-20.0', reading: '-19.6', uncertainty: '0.2', tolerance: '0.5' },
    { reference: '4.0', reading: '4.3', uncertainty: '0.2', tolerance: '0.5' }];
  return {
    labName: 'Coldchain Calibration Lab', customerName: 'Rental Co', itemType: 'Wi-Fi logger', itemModel: 'RCW-360',
    itemSerial: serial, conditionOnReceipt: 'No visible damage', receivedOn: day(2), calibratedOn: day(1), method: 'CP-T-01',
    environment: { temperature: 22.5, humidity: 45 }, decisionRule: 'simple',
    asFound: adjusted ? [{ ...found[0], reading: '-18.9' }, found[1]] : found,
    ...(adjusted ? { asLeft: found } : {}),
    authorisedBy: { name: 'Li Wei', role: 'Technical manager' },
  };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'coldchain-calibration-'));
  const [port, sandboxPort] = await Promise.all([freePort(), freePort()]);
  baseURL = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(), ...COMMON, APP_ENV: 'development', VAR_DIR: work, DATABASE_URL: `sqlite:///${join(work, 'loop.db')}`,
    WEB_DIST: inject('webDist'), EDITION: 'domestic', MQTT_EMBEDDED: '0', PAYMENT_BACKEND: 'providers',
    PAYMENT_SANDBOX_URL: `http://127.0.0.1:${sandboxPort}`, PUBLIC_BASE_URL: baseURL, NOTIFICATION_BACKEND: 'development',
  };
  await run('migrate', env);
  await run('demo-seed', env);
  served = start(['serve', '--host', '127.0.0.1', '--port', String(port)], env);
  await waitForOk(`${baseURL}/api/base/health`, 'coldchain serve (calibration loop)', served.process, served.output);
  await waitForOk(`http://127.0.0.1:${sandboxPort}/health`, 'the payment sandbox', served.process, served.output);
});

afterAll(async () => {
  if (served) await stop(served.process);
  rmSync(work, { recursive: true, force: true });
});

describe('the calibration loop', () => {
  it('is ordered on a phone without an account, paid by Alipay, certified by the lab and dates alice\'s logger', async () => {
    const { page, context } = session;
    await page.setViewportSize({ width: 375, height: 812 });
    await preferLanguage(page, 'en-US');

    // --- the customer orders two loggers by serial number and pays on Alipay's mobile page
    await page.goto(`${baseURL}/mobile/calibration/home`);
    await page.getByTestId('calibration-order-now').click();
    await page.getByTestId('calibration-mobile-device').waitFor();
    for (const count of [1, 2]) {
      await page.getByTestId('calibration-add').click();
      await expect.poll(() => page.getByTestId('calibration-line').count()).toBe(count);
    }
    for (const [index, serial] of [ROOM_B, OTHER].entries()) {
      const line = page.getByTestId('calibration-line').nth(index);
      await chooseOption(line.getByTestId('calibration-type'), 'RCW-360');
      await line.getByTestId('calibration-model').fill('RCW-360');
      await line.getByTestId('calibration-serial').fill(serial);
    }
    await shot(page, 'calibration-loop-devices');
    await page.getByTestId('calibration-next').click();
    await page.getByTestId('calibration-mobile-serve').waitFor();
    await page.getByTestId('calibration-next').click();
    await page.getByTestId('calibration-mobile-customer').waitFor();
    await page.getByTestId('calibration-customerName').fill('Rental Co');
    await page.getByTestId('calibration-contactName').fill('Wang');
    await page.getByTestId('calibration-contactPhone').fill('+86 139 0000 0009');
    await page.getByTestId('calibration-returnAddress').fill('9 Pharmacy Lane, Shanghai');
    await page.getByTestId('calibration-next').click();
    await page.getByTestId('calibration-mobile-apply').waitFor();
    await page.getByTestId('calibration-submit').click();
    const preview = page.getByTestId('calibration-preview');
    await preview.waitFor();
    const number = (await preview.getByTestId('calibration-number').textContent())!.trim();
    await preview.getByTestId('calibration-pay-aliPay').click();
    await page.waitForURL((url) => url.port !== new URL(baseURL).port);  // Alipay's mobile page (the sandbox's)
    await shot(page, 'calibration-loop-alipay');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/mobile/calibration/apply/success');
    await page.getByTestId('calibration-mobile-success').getByText(number).waitFor();
    expect(await page.getByTestId('calibration-not-paid-yet').count()).toBe(0);
    await shot(page, 'calibration-loop-paid');

    // --- the lab: received, in calibration, results (the second logger adjusted), certificates issued
    await asUser(baseURL, 'calibadmin', 'en-US', async (lab) => {
      const found = await call<{ data: { applicationId: number; status: number }[] }>(lab, 'POST',
        '/calibration/Application/page/allApplicationOrder', { applicationNumber: number });
      const [{ applicationId, status }] = found.data as [{ applicationId: number; status: number }];
      expect(status).toBe(2);  // paid, by the sandbox's notification or the return page's question
      for (const next of [3, 4, 5]) {
        await call(lab, 'POST', '/calibration/Application/applicationStatus', { applicationId, status: next });
      }
      for (const [lineIndex, serial] of [[1, ROOM_B], [2, OTHER]] as const) {
        const draft = await call<{ certificateId: number }>(lab, 'POST', '/calibration/ResultInfo/insert',
          { applicationId, lineIndex, ...results(serial, lineIndex === 2) });
        await call(lab, 'POST', '/calibration/ResultInfo/issue', { certificateId: draft.certificateId });
      }
    });

    // --- the customer saves both certificates on the phone
    await page.goto(`${baseURL}/mobile/calibration/detail/${number}`);
    const links = page.getByTestId('calibration-certificate-download');
    await expect.poll(() => links.count()).toBe(2);
    await shot(page, 'calibration-loop-certificates');
    for (const index of [0, 1]) {
      await page.goto(`${baseURL}/mobile/calibration/detail/${number}`);
      await links.nth(index).click();
      const save = page.getByTestId('calibration-pdf-save');
      await save.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), save.click()]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      const file = join(work, `certificate-${index}.pdf`);
      await download.saveAs(file);
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    }

    // --- alice's console: her logger's new calibration, and the due date its reminders count from
    const alice = await context.browser()!.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const console = await alice.newPage();
      await logInPastNotice(console, baseURL, 'alice', 'en-US');
      await console.goto(`${baseURL}/device/list?deviceName=${encodeURIComponent('Cold room B')}`);
      await console.getByTestId('device-row').first().getByTestId('device-link').click();
      await console.getByTestId('device-tab-info').click();
      const section = console.getByTestId('device-calibration');
      await section.waitFor();
      const yesterday = new Date(Date.now() - 86_400_000);
      const due = new Date(Date.UTC(yesterday.getUTCFullYear() + 1, yesterday.getUTCMonth(), yesterday.getUTCDate()));
      await expect(section.getByTestId('calibration-calibratedOn').locator('dd').textContent()).resolves.toBe(yesterday.toISOString().slice(0, 10));
      await expect(section.getByTestId('calibration-dueOn').locator('dd').textContent()).resolves.toContain(due.toISOString().slice(0, 10));
      expect(await section.getByTestId('calibration-certificate').locator('dd').textContent()).toMatch(/^[A-Z]+-\d{4}-\d{6}$/);
      await shot(console, 'calibration-loop-alice-device');
    } finally {
      await alice.close();
    }
  });
});
