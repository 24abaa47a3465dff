/**
 * Projects in a real browser against `coldchain serve` with demo data: acme finds Projects in its
 * menu, makes a project, moves its door logger into it from the device list's batch action,
 * filters the list by the project and opens the project with its device, in English and in
 * Russian, on a desktop and a 375 px phone. Screenshots go to var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const DOOR = 'Warehouse 1 door logger';

describe('projects', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    for (const width of [1280, 375]) {
      it(`makes a project, moves a device into it from the device list and filters by it (${language}, ${width} px)`, async () => {
        const { page } = session;
        const strings = readLocale('projects/locales', language);
        const name = `${language.slice(0, 2)} ${width}`;
        await page.setViewportSize({ width, height: 900 });
        await logInPastNotice(page, baseURL, 'acme', language);
        if (width > 600) expect(await page.locator('a[href="/project/list"]').count()).toBeGreaterThan(0);
        await page.goto(`${baseURL}/project/list`);
        await page.getByTestId('projects-page').waitFor();
        await page.getByTestId('project-row').filter({ hasText: 'Warehouse 1' }).waitFor();
        await page.getByTestId('project-add').click();
        await page.getByTestId('project-name').fill('x');
        await page.getByText(strings.error.nameLength.replace('{{min}}', '2').replace('{{max}}', '20')).waitFor();
        await page.getByTestId('project-name').fill(name);
        await page.getByTestId('project-remark').fill('Dock B, night shift');
        await shot(page, `projects-dialog-${language}-${width}`);
        await page.getByTestId('project-save').click();
        await page.getByTestId('project-detail').filter({ hasText: name }).waitFor();

        await page.goto(`${baseURL}/device/list`);
        const row = page.getByTestId('device-row').filter({ hasText: DOOR });
        await row.waitFor();
        // the table scrolls sideways on a phone: the box is ticked wherever it is
        await row.getByTestId('device-select').dispatchEvent('click');
        await page.getByTestId('device-move-selected').click();
        await page.getByTestId('move-project-target').selectOption({ label: name });
        await shot(page, `projects-move-${language}-${width}`);
        await page.getByRole('alertdialog').getByRole('button', { name: readLocale('devices/locales', language).project.confirm_one }).click();
        await row.getByTestId('device-project').filter({ hasText: name }).waitFor();

        await page.getByTestId('device-project-filter').selectOption({ label: name });
        await expect.poll(async () => page.getByTestId('device-row').count()).toBe(1);
        await expect(page.getByTestId('device-row').first().textContent()).resolves.toContain(DOOR);
        await shot(page, `projects-device-list-${language}-${width}`);

        await page.goto(`${baseURL}/project/list`);
        await page.getByTestId('project-row').filter({ hasText: name }).getByTestId('project-open').click();
        const detail = page.getByTestId('project-detail');
        await detail.getByTestId('project-device').filter({ hasText: DOOR }).waitFor();
        await shot(page, `projects-page-${language}-${width}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      });
    }
  }
});
