/**
 * Assets in a real browser against `coldchain serve` with demo data: alice finds Assets in her
 * menu, sees her demo asset, makes an asset with a custom attribute (the form refusing a name too
 * long first), binds two of her devices from the picker, disables the asset (its devices show as
 * disabled), and deletes it again, which gives the devices back; in English and in Russian, on a
 * desktop and a 375 px phone. Screenshots go to var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const DEVICES = ['Cold room A logger', 'Cold room B logger'];

describe('assets', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    for (const width of [1280, 375]) {
      it(`makes an asset, binds two devices, disables and deletes it (${language}, ${width} px)`, async () => {
        const { page } = session;
        const strings = readLocale('assets/locales', language);
        const name = `Fridge ${language.slice(0, 2)} ${width}`;
        await page.setViewportSize({ width, height: 900 });
        await logInPastNotice(page, baseURL, 'alice', language);
        if (width > 600) expect(await page.locator('a[href="/asset/list"]').count()).toBeGreaterThan(0);
        await page.goto(`${baseURL}/asset/list`);
        await page.getByTestId('assets-page').waitFor();
        await page.getByTestId('asset-row').filter({ hasText: 'Pharmacy vaccine store' }).waitFor();
        await shot(page, `assets-list-${language}-${width}`);

        await page.getByTestId('asset-add').click();
        await page.getByTestId('asset-assetName').fill('x'.repeat(101));
        await page.getByText(strings.error.nameLength.replace('{{max}}', '100')).waitFor();
        await page.getByTestId('asset-assetName').fill(name);
        await page.getByTestId('asset-assetType').fill('Vaccine refrigerator');
        await page.getByTestId('asset-assetNumber').fill(`VF-${width}`);
        await page.getByTestId('asset-volume').fill('280 L');
        await page.getByTestId('asset-custom-add').click();
        await page.getByTestId('asset-custom-key').fill('Shelves');
        await page.getByTestId('asset-custom-value').fill('4');
        await shot(page, `assets-dialog-${language}-${width}`);
        await page.getByTestId('asset-save').click();
        await page.getByTestId('asset-title').filter({ hasText: name }).waitFor();

        await page.getByTestId('asset-bind').click();
        const list = page.getByTestId('asset-picker-list');
        await page.getByTestId('asset-picker-search').fill('Cold room');
        for (const device of DEVICES) await list.getByText(device).click();
        await shot(page, `assets-bind-${language}-${width}`);
        await page.getByTestId('asset-bind-save').click();
        await expect.poll(async () => page.getByTestId('asset-device-row').count()).toBe(2);

        await page.getByTestId('asset-state').dispatchEvent('click');
        await page.getByTestId('asset-disabled-note').waitFor();
        await expect.poll(async () => page.getByTestId('asset-device-state').allTextContents())
          .toEqual([strings.state.disabled, strings.state.disabled]);
        await shot(page, `assets-detail-disabled-${language}-${width}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);

        await page.getByTestId('asset-back').click();
        const row = page.getByTestId('asset-row').filter({ hasText: name });
        await row.waitFor();
        await shot(page, `assets-list-disabled-${language}-${width}`);
        await row.getByTestId('asset-delete').dispatchEvent('click');
        await page.getByTestId('asset-delete-confirm').waitFor();
        await page.getByRole('alertdialog').getByRole('button', { name: strings.delete }).click();
        await expect.poll(async () => row.count()).toBe(0);
      });
    }
  }
});
