/**
 * The service catalogue in a real browser against `coldchain serve` with demo data: the operator
 * opens /service/package, makes a package for the RCW-360 type (the form refusing a code of seven
 * digits first), names it in Chinese (the domestic default) and in the browser's language side by
 * side, adds two levels with their durations and fees, sets the free gift, and tries to enable it:
 * the demo's standard plan serves the type, so it is refused naming the package to stop.
 * In English on a desktop and in Russian on a 375 px phone. Screenshots go to var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();

describe('service catalogue', () => {
  for (const [language, width, code] of [['en-US', 1280, '30000001'], ['ru-RU', 375, '30000002']] as const) {
    it(`makes a package with two levels (${language}, ${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('catalogue/locales', language);
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'operator', language);
      await page.goto(`${baseURL}/service/package?tab=packages`);
      await page.getByTestId('package-row').first().waitFor();
      await shot(page, `catalogue-list-${language}-${width}`);

      await page.getByTestId('package-new').click();
      await page.getByTestId('package-code').fill(code.slice(0, 7));
      await page.getByText(strings.form.code).waitFor();
      await page.getByTestId('package-code').fill(code);
      await page.getByTestId('package-names-zh-CN-name').fill('冷链套餐');
      await page.getByTestId(`package-names-${language}-name`).fill(language === 'en-US' ? 'Cold plan' : 'Холодный тариф');
      await page.getByTestId('package-type-8001').dispatchEvent('click');
      await shot(page, `catalogue-new-package-${language}-${width}`);
      await page.getByTestId('package-save').click();
      await page.getByTestId('package-levels').waitFor();

      for (const [zh, local, fee] of [['银卡', language === 'en-US' ? 'Silver' : 'Серебряный', '50'],
        ['金卡', language === 'en-US' ? 'Gold' : 'Золотой', '120']] as const) {
        await page.getByTestId('level-add').click();
        await page.getByTestId('level-names-zh-CN-name').fill(zh);
        await page.getByTestId(`level-names-${language}-name`).fill(local);
        await page.getByTestId('level-row-serviceFee').first().fill(fee);
        await page.getByTestId('level-row-add').click();
        await page.getByTestId('level-row-timeLength').nth(1).fill('24');
        await page.getByTestId('level-row-serviceFee').nth(1).fill(String(Number(fee) * 2));
        await page.getByTestId('level-row-discount').nth(1).fill('90');
        if (zh === '金卡') await shot(page, `catalogue-level-dialog-${language}-${width}`);
        await page.getByTestId('level-save').click();
        await page.getByTestId('level-form').waitFor({ state: 'detached' });
      }
      await expect.poll(async () => page.getByTestId('level-name').allTextContents())
        .toEqual(language === 'en-US' ? ['Silver', 'Gold'] : ['Серебряный', 'Золотой']);
      await page.getByTestId('gift-timeLength').fill('3');
      await page.getByTestId('gift-level').selectOption({ index: 2 });
      await page.getByTestId('gift-smsCount').fill('20');
      await page.getByTestId('gift-save').click();
      await page.getByTestId('gift-message').filter({ hasText: strings.gift.saved }).waitFor();
      await shot(page, `catalogue-editor-${language}-${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      await page.getByTestId('package-back').click();
      const row = page.getByTestId('package-row').filter({ hasText: code });
      await row.waitFor();
      await row.getByTestId('package-switch').click();
      await page.getByTestId('package-refusal').waitFor();
      // the package to stop, named in the operator's language
      expect(await page.getByTestId('package-refusal').textContent())
        .toContain(language === 'en-US' ? 'Standard cloud plan' : 'Стандартный облачный');
      await shot(page, `catalogue-refused-${language}-${width}`);
    });
  }
});
