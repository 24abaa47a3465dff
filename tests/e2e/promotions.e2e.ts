/**
 * Promotions in a real browser against `coldchain serve` with demo data: the operator opens the
 * promotions tab of /service/package, runs a 20 % directional activity for alice on the basic
 * level's 12-month option (found through the account search, with its Russian name beside the
 * default), alice's price for that option drops to 80 % (asked of the API as alice), the operator
 * stops it and deletes it after confirmations saying the package's own prices come back, and
 * alice's price is the package's own again. The SMS tab shows the demo's packages per country
 * code; the sales tab totals what was paid over the last days. The activity prices two options
 * differently (80 % on 12 months, 60 % and a bonus month on 24), each charged at its own.
 * In English on a desktop and in Russian on a 375 px phone. Screenshots go to var/screenshots/.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const NAMES: string[] = [];

type Option = { levelYearId: number; levelName: string; timeLength: number; currency: string; serviceFee: number };

async function call<T>(headers: Record<string, string>, path: string, init: RequestInit = {}): Promise<T> {
  const reply = await fetch(`${baseURL}/api${path}`, { ...init, headers });
  const body = (await reply.json()) as { code: number; data: T };
  expect(body.code, `${path}: ${JSON.stringify(body)}`).toBe(0);
  return body.data;
}

/** The demo's basic level as the catalogue names it in each language the tests read. */
const BASIC: Record<string, string> = { 'en-US': 'Basic', 'ru-RU': 'Базовый' };

/** The basic level's option of `months` in yuan, as the activity editor lists it. */
function basicOption(language: string, months = 12): Promise<Option> {
  return asUser(baseURL, 'operator', language, async (headers) => {
    const options = await call<Option[]>(headers, '/payment/PayActivity/selectServicePackageActivity');
    return options.find((o) => o.levelName === BASIC[language] && o.timeLength === months && o.currency === 'CNY')!;
  });
}

/** What alice is offered for the option on her cold room A: its price and the activity giving it. */
function alicesOffer(language: string, optionId: number) {
  return asUser(baseURL, 'alice', language, async (headers) => {
    const found = await call<{ data: { deviceId: number }[] }>(headers, '/device/Device/page', {
      method: 'POST', body: JSON.stringify({ deviceName: 'Cold room A logger', pageSize: 10 }) });
    const deviceId = found.data[0]!.deviceId;
    const levels = await call<{ levelId: number; packageId: number; levelName: string }[]>(
      headers, `/payment/PayServicePackages/selectLevelList?deviceId=${deviceId}`);
    const basic = levels.find((l) => l.levelName === BASIC[language])!;
    const years = await call<{ levelYearList: { id: number; price: number; activityId: number | null }[] }>(headers,
      `/payment/PayServiceLevelYear/selectListByDomain?deviceId=${deviceId}&levelId=${basic.levelId}&packageId=${basic.packageId}`);
    const option = years.levelYearList.find((o) => o.id === optionId)!;
    return { price: option.price, activityId: option.activityId };
  });
}

/** Deletes the activities this suite made: one a failed case left would change alice's prices elsewhere. */
async function cleanUp() {
  await asUser(baseURL, 'operator', 'en-US', async (headers) => {
    for (const name of NAMES) {
      const page = await call<{ data: { id: number; defaultName: string }[] }>(headers, '/payment/PayActivity/selectPackageActivity', {
        method: 'POST', body: JSON.stringify({ name, pageSize: 50 }) });
      for (const a of page.data.filter((x) => x.defaultName === name)) {
        await fetch(`${baseURL}/api/payment/PayActivity/delete?id=${a.id}`, { method: 'DELETE', headers });
      }
    }
  });
}

afterAll(cleanUp);

/** How far the page runs past the screen's width: a phone must not scroll sideways. */
function overflowing(page: typeof session.page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

describe('promotions', () => {
  for (const [language, width] of [['en-US', 1280], ['ru-RU', 375]] as const) {
    it(`runs a 20 % directional activity for alice, then stops and deletes it (${language}, ${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('promotions/locales', language);
      const name = `Alice ${language.slice(0, 2)} ${width} ${Date.now() % 1000}`;
      await cleanUp();
      NAMES.push(name);
      const option = await basicOption(language);
      const longer = await basicOption(language, 24);
      const before = await alicesOffer(language, option.levelYearId);
      const longerBefore = await alicesOffer(language, longer.levelYearId);
      expect(before.activityId).toBeNull();

      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'operator', language);
      await page.goto(`${baseURL}/service/package?tab=promotions`);
      await page.getByTestId('pr-activities').waitFor();
      await page.getByTestId('pr-row').first().waitFor();
      await shot(page, `promotions-list-${language}-${width}`);

      await page.getByTestId('pr-add').click();
      await page.getByTestId('pr-name').fill('x'.repeat(21));
      await page.getByText(strings.rule.nameLength.replace('{{max}}', '20')).first().waitFor();
      await page.getByTestId('pr-name').fill(name);
      await page.getByTestId('pr-name-ru-RU').fill('Для Алисы');
      await page.getByTestId('pr-nature-2').dispatchEvent('click');
      // two options at different prices: the 12 months at 80 %, the 24 months at 60 % and a bonus month
      await page.getByTestId('pr-discount').fill('80');
      await page.locator(`input[data-option-id="${option.levelYearId}"]`).dispatchEvent('click');
      await page.locator(`input[data-option-id="${longer.levelYearId}"]`).dispatchEvent('click');
      const longerRow = page.locator(`[data-testid="pr-linked-row"][data-option-id="${longer.levelYearId}"]`);
      await longerRow.getByTestId('pr-option-discount').fill('100');
      await longerRow.getByTestId('pr-option-bonus').fill('0');
      await page.getByTestId('pr-save').click();
      await longerRow.getByText(strings.rule.offersNothing).waitFor(); // a row that offers nothing is refused on the form
      await longerRow.getByTestId('pr-option-discount').fill('60');
      await longerRow.getByTestId('pr-option-bonus').fill('1');
      await page.getByTestId('pr-account-search').fill('alice');
      await page.getByTestId('pr-account-find').click();
      await page.getByTestId('pr-account-add').first().click();
      await page.getByTestId('pr-target').filter({ hasText: 'alice' }).waitFor();
      await shot(page, `promotions-editor-${language}-${width}`);
      await page.getByTestId('pr-save').click();
      // the row shows the name in the operator's language (Russian: its Russian name), so it is found by its default name
      const row = page.locator(`[data-testid="pr-row"][data-name="${name}"]`);
      await row.waitFor();
      if (language === 'ru-RU') expect(await row.textContent()).toContain('Для Алисы');
      await expect.poll(async () => row.getByTestId('pr-row-targets').textContent()).toContain('alice');
      await shot(page, `promotions-running-${language}-${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      const during = await alicesOffer(language, option.levelYearId);
      expect(during.activityId).not.toBeNull();
      expect(during.price).toBe(Math.floor((option.serviceFee * 0.8) / 100) * 100); // charged in whole yuan
      const longerDuring = await alicesOffer(language, longer.levelYearId);
      expect(longerDuring.activityId).toBe(during.activityId);
      expect(longerDuring.price).toBe(Math.floor((longer.serviceFee * 0.6) / 100) * 100);

      await row.getByTestId('pr-stop').dispatchEvent('click');
      const confirm = page.getByTestId('pr-confirm');
      await confirm.waitFor();
      const shown = language === 'ru-RU' ? 'Для Алисы' : name;
      expect(await confirm.textContent()).toBe(strings.confirm.stop.replace('{{name}}', shown));
      await shot(page, `promotions-stop-${language}-${width}`);
      await page.getByRole('alertdialog').getByRole('button', { name: strings.confirm.stopButton }).click();
      await expect.poll(async () => row.getByTestId('pr-row-status').textContent()).toBe(strings.status.stopped);
      expect((await alicesOffer(language, option.levelYearId)).activityId).toBeNull();

      await row.getByTestId('pr-delete').dispatchEvent('click');
      await page.getByTestId('pr-confirm').waitFor();
      await page.getByRole('alertdialog').getByRole('button', { name: strings.confirm.deleteButton }).click();
      await expect.poll(async () => row.count()).toBe(0);
      expect(await alicesOffer(language, option.levelYearId)).toEqual(before);
      expect(await alicesOffer(language, longer.levelYearId)).toEqual(longerBefore);

      await page.getByTestId('catalogue-tab-sms').click();
      await page.getByTestId('pr-alert-group').first().waitFor();
      await shot(page, `promotions-sms-${language}-${width}`);
      expect(await overflowing(page)).toBeLessThanOrEqual(0);

      // the sales tab: what alice paid here shows in the totals of the last 7 days
      await asUser(baseURL, 'alice', language, async (headers) => {
        const found = await call<{ data: { deviceId: number }[] }>(headers, '/device/Device/page', {
          method: 'POST', body: JSON.stringify({ deviceName: 'Cold room A logger', pageSize: 10 }) });
        const packages = await call<{ smsList: { packageId: number; smsCount: number; packageFee: number; price: number }[] }>(
          headers, '/payment/PaySmsPackages/selectSmsPackage?countryCode=86');
        const sms = packages.smsList[0]!;
        const placed = await call<{ payQrCode: string }>(headers, '/payment/PayOrder/createSmsOrder', {
          method: 'POST', body: JSON.stringify({ deviceId: found.data[0]!.deviceId, payType: 1, countryCode: '86',
            smsPackageId: sms.packageId, smsCount: sms.smsCount, smsFee: sms.packageFee, voicePackageId: null, voiceCount: 0,
            voiceFee: 0, totalFee: sms.price }) });
        const link = new URL(placed.payQrCode);
        expect((await fetch(`${baseURL}${link.pathname}${link.search}`)).status).toBe(200); // the development payment
      });
      await page.getByTestId('catalogue-tab-sales').click();
      await page.getByTestId('pr-sales-7').click();
      const smsRow = page.getByTestId('pr-sales-sms-row').filter({ hasText: '+86' });
      await smsRow.waitFor();
      expect(await page.getByTestId('pr-sales-total').textContent()).toMatch(/\d/);
      await page.getByTestId('pr-sales-activity-row').first().waitFor();
      await shot(page, `promotions-sales-${language}-${width}`);
      expect(await overflowing(page)).toBeLessThanOrEqual(0);
    });
  }
});
