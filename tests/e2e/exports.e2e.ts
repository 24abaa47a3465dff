/**
 * Exports in a real browser against `coldchain serve` with demo data: alice exports Cold room A's
 * week as XLSX and as a PDF report from the device detail, and her device list as XLSX; each
 * appears in the download centre, is downloaded by the browser and read back (the XLSX with
 * openpyxl, the PDF's text with pypdf, from the project's Python), in English and in Russian, and
 * on a phone. Screenshots go to var/screenshots/.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const python = fileURLToPath(new URL('../../.venv/bin/python', import.meta.url));
const session = browserSession({ acceptDownloads: true });
const folder = mkdtempSync(join(tmpdir(), 'coldchain-exports-'));

/** The first rows of an XLSX's first sheet, as JSON. */
function readXlsx(path: string): unknown[][] {
  const script = 'import json,sys\nfrom openpyxl import load_workbook\n' +
    'rows = [list(r) for r in load_workbook(sys.argv[1], read_only=True).worksheets[0].iter_rows(values_only=True)]\n' +
    'print(json.dumps(rows[:5] + [[len(rows)]], default=str))';
  return JSON.parse(execFileSync(python, ['-c', script, path], { encoding: 'utf8' })) as unknown[][];
}

function readPdf(path: string): string {
  const script = 'import sys\nfrom pypdf import PdfReader\n' +
    'print("\\n".join(p.extract_text() for p in PdfReader(sys.argv[1]).pages))';
  return execFileSync(python, ['-c', script, path], { encoding: 'utf8' });
}

async function quiet(page: Page): Promise<void> {
  await page.locator('.bp6-toast').first().waitFor({ state: 'detached', timeout: 8_000 }).catch(() => undefined);
}

async function openDevice(page: Page, name: string): Promise<void> {
  await page.goto(`${baseURL}/device/list`);
  await page.locator(`[data-testid="device-row"][data-device-name="${name}"] [data-testid="device-link"]`).click();
  await page.getByTestId('device-detail-page').waitFor();
}

/** Asks for an export in the detail's dialog, lands in the download centre, downloads the newest. */
async function exportDevice(page: Page, format: 'xlsx' | 'pdf', language: string, shotName?: string): Promise<string> {
  await openDevice(page, 'Cold room A logger');
  await page.getByTestId('device-export').click();
  await page.getByTestId('export-range').selectOption('7d');
  await page.getByTestId(`export-format-${format}`).check({ force: true });
  if (shotName) await shot(page, shotName);
  await page.getByTestId('export-submit').click();
  await page.waitForURL(`${baseURL}/consumer/download`);
  return downloadNewest(page, format, language);
}

async function downloadNewest(page: Page, format: string, language: string): Promise<string> {
  const row = page.locator(`[data-testid="download-row"][data-format="${format}"]`).first();
  await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('ready');
  const strings = readLocale('downloads/locales', language);
  await expect(row.getByTestId('download-file').textContent()).resolves.toBe(strings.download);
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('download-file').click()]);
  const path = join(folder, `${language}-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  expect(download.suggestedFilename()).toMatch(new RegExp(`\\.${format}$`));
  return path;
}

describe('exports and the download centre', () => {
  for (const language of ['en-US', 'ru-RU'] as const) {
    const russian = language === 'ru-RU';

    it(`exports a week as XLSX and as a PDF report and reads both back (${language})`, async () => {
      const { page } = session;
      await logInPastNotice(page, baseURL, 'alice', language);
      const xlsx = readXlsx(await exportDevice(page, 'xlsx', language, `exports-dialog-${language}`));
      expect(xlsx[0]).toEqual(russian ? ['Время', 'Температура (°C)', 'Влажность (%)'] : ['Time', 'Temperature (°C)', 'Humidity (%RH)']);
      const first = xlsx[1] as [string, number, number];
      expect(first[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(typeof first[1]).toBe('number');
      expect((xlsx.at(-1) as [number])[0]).toBeGreaterThan(1000); // a week of five-minute readings

      const pdf = readPdf(await exportDevice(page, 'pdf', language));
      expect(pdf).toContain('Cold room A logger');
      expect(pdf).toContain('RCW360A0000001');
      expect(pdf).toContain(russian ? 'Код проверки' : 'Verification code');
      expect(pdf).toContain(russian ? 'СКТ' : 'MKT');
      const code = /([A-Z2-7]{4}-){4}[A-Z2-7]{4}/.exec(pdf)?.[0];
      expect(code).toBeTruthy();
      const verdict = await (await fetch(`${baseURL}/api/device/DeviceDataExport/verify?code=${code}`)).json();
      expect(verdict.data).toMatchObject({ genuine: true, deviceGuid: 'RCW360A0000001', accountName: 'alice' });

      await quiet(page);
      await expect(page.getByTestId('download-link').getAttribute('data-count')).resolves.not.toBe('0');
      await shot(page, `exports-downloads-${language}`);
    });
  }

  it('exports the device list as XLSX and shows the download centre on a phone in Russian', async () => {
    const { page } = session;
    await logInPastNotice(page, baseURL, 'alice', 'ru-RU');
    await page.goto(`${baseURL}/device/list`);
    await page.getByTestId('device-table').waitFor();
    await page.getByTestId('device-list-export').click();
    await page.waitForURL(`${baseURL}/consumer/download`);
    const rows = readXlsx(await downloadNewest(page, 'xlsx', 'ru-RU'));
    expect(rows[0]?.slice(0, 3)).toEqual(['Название устройства', 'GUID', 'Тип устройства']);
    // the cold-chain tab's four devices, each with its GUID
    expect(rows.at(-1)).toEqual([5]);
    expect(rows.slice(1, -1).every((r) => /^[A-Z0-9]{8,32}$/.test(String(r[1])))).toBe(true);
    await page.setViewportSize({ width: 375, height: 800 });
    await quiet(page);
    await shot(page, 'exports-downloads-ru-RU-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('answers a stranger\'s download of alice\'s file with 404', async () => {
    const login = async (user: string) => (await (await fetch(`${baseURL}/api/base/BaseAccount/login`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userName: user, accountPassword: 'Coldchain#2026', loginType: 1 }),
    })).json()).data.token as string;
    const alice = await login('alice');
    const page = await (await fetch(`${baseURL}/api/device/DeviceDataExport/page`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${alice}` }, body: '{}',
    })).json();
    const id = page.data.data[0]?.id as string;
    expect(id).toBeTruthy();
    const acme = await login('acme');
    const stranger = await fetch(`${baseURL}/api/device/DeviceDataExport/download?id=${id}`, { headers: { Authorization: `Bearer ${acme}` } });
    expect(stranger.status).toBe(404);
    const owner = await fetch(`${baseURL}/api/device/DeviceDataExport/download?id=${id}`, { headers: { Authorization: `Bearer ${alice}` } });
    expect(owner.status).toBe(200);
  });
});
