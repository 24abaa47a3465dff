/**
 * A device's calibration in the console, in a real browser against `coldchain serve` with demo data:
 * alice filters her device list to the devices whose calibration falls due (the demo's vaccine
 * fridge logger, overdue), opens it, and reads its dates, certificate and interval on
 * the information tab. In English on a desktop and in Russian on a 375 px phone.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const FRIDGE = 'Vaccine fridge logger';

describe('a device\'s calibration', () => {
  for (const [language, width] of [['en-US', 1280], ['ru-RU', 375]] as const) {
    it(`finds the device falling due and shows its dates (${language}, ${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('devices/locales', language);
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'alice', language);
      await page.goto(`${baseURL}/device/list`);
      await page.getByTestId('device-row').first().waitFor();
      await page.getByTestId('device-calibration-filter').selectOption('due');
      await expect.poll(() => page.url()).toContain('calibration=due');
      await expect.poll(() => page.getByTestId('device-row').evaluateAll(
        (rows) => rows.map((row) => row.getAttribute('data-device-name')))).toEqual([FRIDGE]);
      await shot(page, `device-calibration-due-${language}-${width}`);

      await page.getByTestId('device-row').first().getByTestId('device-link').click();
      await page.getByTestId('device-tab-info').click();
      const section = page.getByTestId('device-calibration');
      await section.waitFor();
      await expect(section.getByTestId('calibration-due-state').textContent()).resolves.toBe(strings.calibration.state.overdue);
      expect(await section.getByTestId('calibration-certificate').textContent()).toMatch(/CAL-\d{4}-000917/);
      await section.scrollIntoViewIfNeeded();
      await shot(page, `device-calibration-detail-${language}-${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
});
