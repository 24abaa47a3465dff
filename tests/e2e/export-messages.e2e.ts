/**
 * An export tells its owner in the message centre, in a real browser against `coldchain serve`
 * with demo data: alice exports her device list, the job writes it, and the system messages show
 * "ready" in her language with a link that opens the download centre; in English and Russian, on
 * a desktop and a phone. Screenshots go to var/screenshots/ (export-message-*.png).
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();

async function quiet(page: Page): Promise<void> {
  await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
}

describe('an export told in the message centre', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    it(`says the device list is ready and links to the download centre (${language})`, async () => {
      const { page } = session;
      await page.setViewportSize({ width: 1280, height: 800 });
      await logInPastNotice(page, baseURL, 'alice', language);
      await page.goto(`${baseURL}/device/list`);
      await page.getByTestId('device-table').waitFor();
      await page.getByTestId('device-list-export').click();
      await page.waitForURL(`${baseURL}/consumer/download`);
      const row = page.locator('[data-testid="download-row"][data-format="xlsx"]').first();
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('ready');

      await page.goto(`${baseURL}/message/list?tab=system`);
      const message = page.locator('[data-testid="system-message"][data-kind="export"]').first();
      await message.waitFor();
      const strings = readLocale('messages/systemLocales', language).system;
      const link = message.getByTestId('message-link');
      expect((await link.textContent())?.trim()).toBe(strings.open.downloads);
      expect(await message.locator('.jc-sys-content').textContent()).toContain(language === 'ru-RU' ? 'готов' : 'is ready');
      await quiet(page);
      await shot(page, `export-message-${language}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, `export-message-${language}-phone`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      await link.click();
      await page.waitForURL(`${baseURL}/consumer/download`);
      await page.getByTestId('downloads-table').waitFor();
    });
  }
});
