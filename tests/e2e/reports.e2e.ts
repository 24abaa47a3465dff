/**
 * Scheduled reports in a real browser against `coldchain serve` with demo data: alice makes a
 * weekly schedule of two devices from the data centre's page, in English and in Russian, sees it
 * listed and switches it off; on a 375 px phone the page and its dialog fit. Screenshots go to
 * var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();

describe('scheduled reports', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    for (const width of [1280, 375]) {
      it(`makes a weekly schedule and switches it off (${language}, ${width} px)`, async () => {
        const { page } = session;
        const strings = readLocale('reports/locales', language);
        await page.setViewportSize({ width, height: 900 });
        await logInPastNotice(page, baseURL, 'alice', language);
        await page.goto(`${baseURL}/service/scheduledBackup`);
        await page.getByTestId('reports-page').waitFor();
        await page.getByTestId('report-add').click();
        await page.getByTestId('report-name').fill(`${language} ${width}`);
        await page.getByTestId('report-frequency').selectOption('weekly');
        await page.getByTestId('report-weekday').selectOption('0');
        await page.getByTestId('report-picker-list').getByText('Cold room A logger').click();
        await page.getByTestId('report-picker-list').getByText('Cold room B logger').click();
        await page.getByTestId('report-recipients').fill('qa@example.com\nboss@example.com');
        await shot(page, `reports-dialog-${language}-${width}`);
        await page.getByTestId('report-save').click();
        const row = page.getByTestId('report-row').filter({ hasText: `${language} ${width}` });
        await row.waitFor();
        await expect(row.textContent()).resolves.toContain(strings.weekday['0']);
        // the table scrolls sideways on a phone: the switch is pressed wherever it is
        await row.getByTestId('report-enabled').dispatchEvent('click');
        await expect.poll(async () => row.locator('input[type="checkbox"]').isChecked()).toBe(false);
        await shot(page, `reports-list-${language}-${width}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      });
    }
  }
});
