/**
 * The calibration customer's screens in a real browser against `coldchain serve` with demo data.
 * The lab (calibadmin) prices a device type first. A customer without an account, on a 375 px
 * phone, applies for two devices typed by serial number over the phone's steps, sees the preview
 * with the total and the pay step, and finds the application in "my applications" by its number;
 * the same on the PC form at 1280 px in Russian. Screenshots go to var/screenshots/.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, preferLanguage, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const PRICES: Record<number, number> = { 1: 12_000, 2: 18_000, 3: 24_000 };
let typeId = 0;
let typeName = '';

function currencyText(cents: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'CNY', currencyDisplay: 'narrowSymbol' }).format(cents / 100);
}

async function noOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Two typed devices: the type priced above, a model and a serial number each. */
async function typeDevices(page: Page, serials: readonly string[]): Promise<void> {
  for (const [index, serial] of serials.entries()) {
    await page.getByTestId('calibration-add').click();
    const line = page.getByTestId('calibration-line').nth(index);
    await line.getByTestId('calibration-type').selectOption(String(typeId));
    await line.getByTestId('calibration-model').fill('RC-5');
    await line.getByTestId('calibration-serial').fill(serial);
  }
}

async function fillDetails(page: Page): Promise<void> {
  await page.getByTestId('calibration-customerName').fill('Fresh Logistics');
  await page.getByTestId('calibration-contactName').fill('Li Wei');
  await page.getByTestId('calibration-contactPhone').fill('+86 138 0000 1234');
  await page.getByTestId('calibration-returnAddress').fill('12 Gangcheng Road, Shanghai');
}

async function findInList(page: Page, number: string, language: string, name: string): Promise<void> {
  await page.goto(`${baseURL}/mobile/calibration/list`);
  await page.getByTestId('calibration-list-search').fill(number.slice(-6).toLowerCase());
  await page.getByTestId('calibration-list-go').click();
  const row = page.getByTestId('calibration-list-row').filter({ hasText: number });
  await row.waitFor();
  expect(await page.getByTestId('calibration-list-row').count()).toBe(1);
  await expect(row.textContent()).resolves.toContain(readLocale('calibration/locales', language).status['1']);
  await shot(page, `calibration-list-${name}`);
  await noOverflow(page);
  await row.getByRole('link').click();
  await page.getByTestId('calibration-detail').waitFor();
  await page.getByTestId('calibration-ladder').locator('[aria-current="step"]').waitFor();
  await page.getByTestId('calibration-pay').waitFor();
  await shot(page, `calibration-detail-${name}`);
  await noOverflow(page);
}

describe('the calibration customer without an account', () => {
  beforeAll(async () => {
    await asUser(baseURL, 'calibadmin', 'en-US', async (headers) => {
      const types = (await (await fetch(`${baseURL}/api/device/DeviceType/selectTypeList`, { headers })).json()) as {
        data: { typeId: number; typeName: string }[];
      };
      ({ typeId, typeName } = types.data[0]!);
      for (const [service, price] of Object.entries(PRICES)) {
        const reply = await fetch(`${baseURL}/api/calibration/PriceConf/update/price`, {
          method: 'PUT', headers, body: JSON.stringify({ deviceTypeId: typeId, service: Number(service), price }),
        });
        expect(reply.status).toBe(200);
      }
    });
  });

  it('applies for two typed serial numbers on a phone, sees the total and the pay step, and finds it by number (375 px)', async () => {
    const { page } = session;
    const language = 'en-US';
    const strings = readLocale('calibration/locales', language);
    await page.setViewportSize({ width: 375, height: 812 });
    await preferLanguage(page, language);
    await page.goto(`${baseURL}/mobile/calibration/home`);
    await page.getByTestId('calibration-prices').getByText(typeName).waitFor(); // named without a login
    await shot(page, 'calibration-mobile-home');
    await noOverflow(page);
    await page.getByTestId('calibration-order-now').click();

    await page.getByTestId('calibration-mobile-device').waitFor();
    await page.getByTestId('calibration-next').click(); // no device yet: refused
    await page.getByText(strings.error.devicesCount.replace('{{max}}', '50')).waitFor();
    const stamp = Date.now().toString(36).toUpperCase();
    await typeDevices(page, [`M-${stamp}-1`, `M-${stamp}-2`]);
    await shot(page, 'calibration-mobile-device');
    await noOverflow(page);
    await page.getByTestId('calibration-next').click();

    await page.getByTestId('calibration-mobile-serve').waitFor();
    await page.getByTestId('calibration-service').nth(1).selectOption('2');
    await page.getByTestId('calibration-next').click(); // extra points need a note
    await page.getByText(strings.error.pointsNote).waitFor();
    await page.getByTestId('calibration-points').fill('-20 °C');
    await expect(page.getByTestId('calibration-total').textContent()).resolves
      .toContain(currencyText(PRICES[1]! + PRICES[2]!, language));
    await shot(page, 'calibration-mobile-serve');
    await page.getByTestId('calibration-next').click();

    await page.getByTestId('calibration-mobile-customer').waitFor();
    await page.getByTestId('calibration-next').click();
    await page.getByText(strings.error.contactWay).waitFor();
    await fillDetails(page);
    await shot(page, 'calibration-mobile-customer');
    await noOverflow(page);
    await page.getByTestId('calibration-next').click();

    await page.getByTestId('calibration-mobile-apply').waitFor();
    await shot(page, 'calibration-mobile-apply');
    await page.getByTestId('calibration-submit').click();

    const preview = page.getByTestId('calibration-preview');
    await preview.waitFor();
    const total = currencyText(PRICES[1]! + PRICES[2]!, language);
    await expect(preview.getByTestId('calibration-summary-total').textContent()).resolves.toContain(total);
    expect(await preview.getByTestId('calibration-summary-line').count()).toBe(2);
    await preview.getByTestId('calibration-pay-aliPay').waitFor();
    await preview.getByTestId('calibration-pay-wechatPay').waitFor();
    const number = (await preview.getByTestId('calibration-number').textContent())!.trim();
    expect(number).toMatch(/^CAL\d{8}\w{8}$/);
    await shot(page, 'calibration-mobile-preview');
    await noOverflow(page);
    await preview.getByTestId('calibration-pay-later').click();
    await page.getByTestId('calibration-mobile-latter').getByTestId('calibration-number').filter({ hasText: number }).waitFor();
    await shot(page, 'calibration-mobile-latter');

    await findInList(page, number, language, 'mobile');

    // the other phone pages fit the width too
    for (const [path, ready] of [['quickly', 'calibration-quick-lab-only'], ['device/example', 'calibration-mobile-example'],
      ['customer/example', 'calibration-mobile-example'], ['login', 'calibration-login']] as const) {
      await page.goto(`${baseURL}/mobile/calibration/${path}`);
      await page.getByTestId(ready).waitFor();
      await shot(page, `calibration-mobile-${path.replace('/', '-')}`);
      await noOverflow(page);
    }
  });

  it('applies on the PC form in Russian, sees the preview with the total and the pay step, and finds it by number (1280 px)', async () => {
    const { page } = session;
    const language = 'ru-RU';
    const strings = readLocale('calibration/locales', language);
    await page.setViewportSize({ width: 1280, height: 900 });
    await preferLanguage(page, language);
    await page.goto(`${baseURL}/calibration`);
    await page.getByTestId('calibration-prices').waitFor();
    await shot(page, 'calibration-pc-home-ru');
    await page.getByTestId('calibration-order-now').click();
    await page.getByTestId('calibration-form').waitFor();
    await page.getByTestId('calibration-submit').click();
    await page.getByText(strings.error.devicesCount.replace('{{max}}', '50')).waitFor();
    const stamp = Date.now().toString(36).toUpperCase();
    await typeDevices(page, [`P-${stamp}-1`, `P-${stamp}-1`]);
    await page.getByText(strings.error.twice).waitFor();
    await page.getByTestId('calibration-line').nth(1).getByTestId('calibration-serial').fill(`P-${stamp}-2`);
    await page.getByTestId('calibration-line').nth(1).getByTestId('calibration-service').selectOption('3');
    await shot(page, 'calibration-pc-devices-ru');
    await fillDetails(page);
    await page.getByText(strings.field.wantInvoice).click();
    await page.getByTestId('calibration-invoiceTitle').waitFor();
    await page.getByText(strings.field.invoiceEnterprise).click();
    await page.getByTestId('calibration-invoiceTitle').fill('Fresh Logistics');
    await page.getByTestId('calibration-submit').click();
    await page.getByTestId('calibration-taxNumber-error').waitFor();
    await page.getByTestId('calibration-taxNumber').fill('91310000MA1K000000');
    const total = currencyText(PRICES[1]! + PRICES[3]!, language);
    await expect(page.getByTestId('calibration-total').textContent()).resolves.toContain(total);
    await shot(page, 'calibration-pc-form-ru');
    await page.getByTestId('calibration-submit').click();

    const preview = page.getByTestId('calibration-preview');
    await preview.waitFor();
    await expect(preview.getByTestId('calibration-summary-total').textContent()).resolves.toContain(total);
    await preview.getByTestId('calibration-pay-aliPay').waitFor();
    const number = (await preview.getByTestId('calibration-number').textContent())!.trim();
    await shot(page, 'calibration-pc-preview-ru');
    await noOverflow(page);

    await findInList(page, number, language, 'pc-ru');
  });
});
