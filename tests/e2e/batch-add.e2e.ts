/**
 * Adding devices from a sheet in a real browser: alice downloads the template (its header in her
 * language), fills it (openpyxl, as a customer's spreadsheet would) with two new GUIDs, one
 * repeated, one of an unknown type and one invalid, uploads it, reads the row-by-row report and
 * the logins as CSV, finds the two devices in the list and deletes them again. A file that is no
 * workbook is refused with the server's message in her language. English and Russian, desktop
 * and a 390 px phone; screenshots batch-add-* and batch-report-* go to var/screenshots/.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
const python = fileURLToPath(new URL('../../.venv/bin/python', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'coldchain-batch-add-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
/** What the server says, in each language (src/adapters/i18n/locales). */
const SERVER = {
  'en-US': { nameHeader: 'Device name', notASheet: 'The file is not an Excel workbook (.xlsx)', already: 'This device has already been added' },
  'ru-RU': { nameHeader: 'Название устройства', notASheet: 'Файл не является книгой Excel (.xlsx)', already: 'Это устройство уже добавлено' },
} as const;

/** Appends `rows` to the first sheet of the workbook at `template`, saved as `out`; returns the header row. */
function fillSheet(template: string, out: string, rows: string[][]): string[] {
  const script = [
    'import json, sys',
    'from openpyxl import load_workbook',
    'book = load_workbook(sys.argv[1])',
    'sheet = book.worksheets[0]',
    'print(json.dumps([cell.value for cell in sheet[1]][:3]))',
    'for row in json.loads(sys.argv[3]): sheet.append(row)',
    'book.save(sys.argv[2])',
  ].join('\n');
  return JSON.parse(execFileSync(python, ['-c', script, template, out, JSON.stringify(rows)], { encoding: 'utf8' })) as string[];
}

/** Clicks `button` and returns the path of the file the browser downloads. */
async function download(page: Page, testId: string, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  const path = join(work, name);
  await file.saveAs(path);
  return path;
}

describe('adding devices from a sheet', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      it(`uploads a filled template and reports every row (${language}, ${size})`, async () => {
        const t = readLocale('devices/locales', language);
        const server = SERVER[language];
        const page = session.page;
        await page.setViewportSize(viewport);
        await logInPastNotice(page, baseURL, 'alice', language);
        await page.goto(`${baseURL}/device/list`);
        await page.getByTestId('device-row').first().waitFor();
        // The expiry reminder's toast would cover the dialog in the screenshots: let it go first.
        await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);

        await page.getByTestId('device-batch-add').click();
        await page.getByTestId('batch-add-form').waitFor();
        const template = await download(page, 'batch-template', `template-${language}-${size}.xlsx`);
        const prefix = `BATCH${language.slice(0, 2).toUpperCase()}${size.toUpperCase()}`;
        const sheet = join(work, `filled-${language}-${size}.xlsx`);
        const header = fillSheet(template, sheet, [
          [`${prefix}01`, `${prefix} dock`, '0x8001'],
          [`${prefix}02`, '', 'RCW-360 Wi-Fi Logger'], // no name: the GUID; the type by its name
          [`${prefix}01`, 'Twice', '0x8001'],
          [`${prefix}03`, '', 'No such type'],
          ['bad guid!', 'Broken', '0x8001'],
        ]);
        expect(header).toEqual(['GUID', server.nameHeader, expect.any(String)]);

        // A file that is no workbook, though named like one: the server refuses it whole.
        const fake = join(work, 'not-a-sheet.xlsx');
        writeFileSync(fake, 'GUID,name\n');
        await page.getByTestId('batch-file').setInputFiles(fake);
        await page.getByTestId('batch-upload').click();
        await expect.poll(() => page.getByTestId('batch-add-form').getByRole('alert').textContent()).toBe(server.notASheet);

        await page.getByTestId('batch-file').setInputFiles(sheet);
        await expect.poll(() => page.getByTestId('batch-add-form').getByRole('alert').count()).toBe(0);
        await shot(page, `batch-add-${language}-${size}`);
        await page.getByTestId('batch-upload').click();

        const report = page.getByTestId('batch-report');
        await report.waitFor();
        const rows = report.getByTestId('batch-row');
        expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-outcome')))).toEqual([
          'added', 'added', 'alreadyAdded', 'unknownType', 'invalid',
        ]);
        expect(await rows.nth(0).textContent()).toContain(t.batch.outcome.added);
        expect(await rows.nth(2).textContent()).toContain(server.already);
        expect(await page.getByTestId('batch-count-added').textContent()).toBe(`${t.batch.outcome.added}: 2`);
        expect(await page.getByTestId('batch-count-invalid').textContent()).toBe(`${t.batch.outcome.invalid}: 1`);
        expect(await page.getByTestId('batch-once-warning').textContent()).toBe(t.batch.onlyOnce);
        const passwords = await report.getByTestId('batch-password').allTextContents();
        expect(passwords).toHaveLength(2);
        passwords.forEach((password) => expect(password.length).toBeGreaterThanOrEqual(24));
        await shot(page, `batch-report-${language}-${size}`);

        const csv = readFileSync(await download(page, 'batch-save-logins', `logins-${language}-${size}.csv`), 'utf8');
        expect(csv).toContain(`"${prefix}01"`);
        expect(csv).toContain(`"${prefix}02"`);
        passwords.forEach((password) => expect(csv).toContain(password));

        await page.getByTestId('batch-done').click();
        await report.waitFor({ state: 'detached' });
        await page.getByTestId('device-search').fill(prefix);
        await page.getByTestId('device-search-submit').click();
        const names = () => page.getByTestId('device-row').evaluateAll((all) => all.map((row) => row.getAttribute('data-device-name')).sort());
        await expect.poll(names).toEqual([`${prefix} dock`, `${prefix}02`]);

        // Left as found: other files count alice's devices.
        for (const name of [`${prefix} dock`, `${prefix}02`]) {
          const row = page.locator(`[data-testid=device-row][data-device-name="${name}"]`);
          await row.getByTestId('device-delete').click();
          await page.getByTestId('delete-devices-dialog').waitFor();
          await page.getByRole('button', { name: t.delete.confirm_one }).click();
          await row.waitFor({ state: 'detached' });
        }
      });
    }
  }
});
