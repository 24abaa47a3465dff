/**
 * Adding a device from the device list in a real browser: alice adds one by GUID, sees its broker
 * login once with the connection settings, and deletes it after a confirmation; in English and
 * Russian, on a desktop and a 375 px phone. Screenshots of the add and login dialogs go to
 * var/screenshots/ (add-device-*, device-login-*).
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSession, chooseOption, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();

const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 375, height: 812 } } as const;

describe('adding a device by GUID', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      it(`adds, shows the login once and deletes it (${language}, ${size})`, async () => {
        const t = readLocale('devices/locales', language);
        const page = session.page;
        await page.setViewportSize(viewport);
        await logInPastNotice(page, baseURL, 'alice', language);
        await page.goto(`${baseURL}/device/list`);
        await page.getByTestId('device-row').first().waitFor();
        const guid = `E2E${language.slice(0, 2).toUpperCase()}${size.toUpperCase()}01`.slice(0, 32);
        const name = `E2E ${language} ${size}`;

        // The expiry reminder's toast would cover the dialogs in the screenshots: let it go first.
        await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
        await page.getByTestId('device-add').click();
        const form = page.getByTestId('device-add-form');
        await form.waitFor();
        await page.getByTestId('add-deviceGuid').fill('short');
        await expect.poll(() => form.getByText(t.add.rule.guid.replace('{{min}}', '8').replace('{{max}}', '32')).count()).toBe(1);
        await page.getByTestId('add-deviceGuid').fill(guid);
        await page.getByTestId('add-deviceName').fill(name);
        await chooseOption(page.getByTestId('add-typeId'), /^RCW-360/);
        await page.getByTestId('add-remark').fill('By the loading dock');
        await shot(page, `add-device-${language}-${size}`);

        await page.getByTestId('add-submit').click();
        const password = page.getByTestId('login-password');
        await password.waitFor();
        await page.getByTestId('login-connection').waitFor();
        expect(await page.getByTestId('login-username').inputValue()).toBe(guid);
        expect((await password.inputValue()).length).toBeGreaterThanOrEqual(24);
        await expect.poll(() => page.getByTestId('login-once-warning').textContent()).toBe(t.login.onlyOnce);
        expect(await page.getByTestId('login-connection').textContent()).toContain(`devices/${guid}/telemetry`);
        expect(await page.getByTestId('login-example').textContent()).toContain('"t": 4.5');
        await shot(page, `device-login-${language}-${size}`);
        await page.getByTestId('login-done').click();
        await page.getByTestId('login-password').waitFor({ state: 'detached' });

        const row = page.locator(`[data-testid=device-row][data-device-name="${name}"]`);
        await row.waitFor();
        await row.getByTestId('device-delete').click();
        await page.getByTestId('delete-devices-dialog').waitFor();
        await page.getByRole('button', { name: t.delete.confirm_one }).click();
        await row.waitFor({ state: 'detached' });
      });
    }
  }
});
