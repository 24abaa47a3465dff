/**
 * Issue 22's "done when", walked in Chromium on a console of its own (its FDA switches, signatures
 * and the trail edited behind its back must not reach the shared servers' other walks):
 *
 * - acme turns FDA mode on for its organization; a second "enable" warns that nothing was needed;
 * - alice (her own records in FDA mode) handles her fridge's alarm: the console asks for her
 *   electronic signature (user name and password, the first of the session), and the alarm shows it;
 * - carol (an administrator of Acme) reviews and acme approves a monthly report of the warehouse cold
 *   room, each in the signature dialog; the PDF shows both manifestations;
 * - an entry of the organization's trail is edited in the database as a superuser would: the trail
 *   tab's verification names the broken link;
 * - a waybill of the organization is approved with acme's signature (in English, in New York) and
 *   carol's (in Russian, in Moscow, on a phone); dave, a read-only member, sees both
 *   manifestations and is offered no approval;
 * - acme exports the warehouse cold room's readings, signed as their author; the export fails (as
 *   a full disk would have it) and its retry in the download centre is signed too (the server's
 *   428 opens the dialog); the download centre shows each export's manifestation, on a phone too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, logInPastNotice, readLocale, shot } from './browser';
import { cleanEnv, COMMON, freePort, run, start, stop, waitForOk, type Served } from './server';

const session = browserSession();
const python = fileURLToPath(new URL('../../.venv/bin/python', import.meta.url));
const PASSWORD = 'Coldchain#2026';
const ORGANIZATION = 'Acme Cold Chain';
const WAREHOUSE = 'Warehouse 1 cold room';
const FRIDGE = 'Vaccine fridge logger';
const fda = readLocale('fda/locales', 'en-US');
const waybills = { en: readLocale('waybills/locales', 'en-US'), ru: readLocale('waybills/locales', 'ru-RU') };
const downloads = readLocale('downloads/locales', 'en-US');
let baseURL = '';
let work = '';
let database = '';
let served: Served | null = null;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'coldchain-fda-'));
  database = join(work, 'fda.db');
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(), ...COMMON, APP_ENV: 'test', VAR_DIR: work, DATABASE_URL: `sqlite:///${database}`,
    WEB_DIST: inject('webDist'), EDITION: 'domestic', MQTT_EMBEDDED: '0',
  };
  await run('migrate', env);
  await run('demo-seed', env);
  served = start(['serve', '--host', '127.0.0.1', '--port', String(port)], env);
  await waitForOk(`${baseURL}/api/base/health`, 'coldchain serve (FDA walk)', served.process, served.output);
});

afterAll(async () => {
  if (served) await stop(served.process);
  rmSync(work, { recursive: true, force: true });
});

async function api<T>(user: string, path: string, body?: unknown): Promise<T> {
  return asUser(baseURL, user, 'en-US', async (headers) => {
    const reply = await fetch(`${baseURL}/api${path}`, body === undefined ? { headers } : {
      method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await reply.json()) as { code: number; data: T; msg: string };
    expect(answer.code, `${path}: ${JSON.stringify(answer)}`).toBe(0);
    return answer.data;
  });
}

/** The signature dialog filled and sent: the user name when it asks for it, the password, a reason. */
async function sign(page: Page, user: string, reason: string, screenshot = `fda-walk-signature-${user}`): Promise<void> {
  const dialog = page.getByTestId('signature-dialog');
  await dialog.waitFor();
  await page.locator('.bp6-overlay-enter-done').filter({ has: dialog }).first().waitFor();
  await expect(dialog.getByTestId('signature-statement').textContent()).resolves.toBeTruthy();
  if (await dialog.getByTestId('signature-user').isVisible()) await dialog.getByTestId('signature-user').fill(user);
  await dialog.getByTestId('signature-password').fill(PASSWORD);
  const reasonInput = dialog.getByTestId('signature-reason-input');
  if (await reasonInput.isVisible()) await reasonInput.fill(reason);
  await shot(page, screenshot);
  await dialog.getByTestId('signature-submit').click();
  await dialog.waitFor({ state: 'detached' });
}

async function fdaTab(page: Page, tab: string): Promise<void> {
  await page.goto(`${baseURL}/fda?tab=${tab}`);
  await page.getByTestId('fda-page').waitFor();
}

const subjectCard = (page: Page, name: string) => page.getByTestId('fda-subject').filter({ hasText: name });

describe('FDA 21 CFR Part 11', () => {
  it('is switched on, signs an alarm\'s handling and a reviewed and approved report, and finds a tampered trail entry', async () => {
    const { page, context } = session;
    await page.setViewportSize({ width: 1280, height: 900 });

    // --- acme turns FDA mode on for the organization; again: nothing to do ----------------------
    await logInPastNotice(page, baseURL, 'acme');
    await fdaTab(page, 'mode');
    const card = subjectCard(page, ORGANIZATION);
    await card.getByTestId('fda-enable').click();
    await expect.poll(() => card.getAttribute('data-enabled')).toBe('true');
    await card.getByTestId('fda-enable').click();
    await expect.poll(() => page.locator('.bp6-toast').allInnerTexts()).toContainEqual(
      expect.stringContaining(fda.mode.alreadyOn));
    await shot(page, 'fda-walk-mode-acme');

    // --- alice: her own records in FDA mode, her fridge's alarm handled with her signature -------
    // each person in a browser of their own: the console keeps its login in the browser's storage
    const browser = context.browser()!;
    const aliceContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const alice = await aliceContext.newPage();
    await logInPastNotice(alice, baseURL, 'alice');
    await fdaTab(alice, 'mode');
    const own = alice.getByTestId('fda-subject').first();
    await own.getByTestId('fda-enable').click();
    await expect.poll(() => own.getAttribute('data-enabled')).toBe('true');
    await alice.goto(`${baseURL}/message/list`);
    const fridge = alice.locator(`[data-testid="alarm-row"][data-device-name="${FRIDGE}"]`);
    await fridge.getByTestId('alarm-deal').click();
    const deal = alice.getByTestId('deal-dialog');
    await deal.waitFor();
    // typed once the dialog has faded in (Blueprint marks its overlay "enter-done")
    await alice.locator('.bp6-overlay-enter-done').filter({ has: deal }).first().waitFor();
    await deal.getByTestId('deal-approve').click();
    await deal.getByTestId('deal-result').fill('Door closed, product moved');
    await shot(alice, 'fda-walk-alarm-deal');
    await deal.getByTestId('deal-submit').click();
    await sign(alice, 'alice', 'Door closed, product moved');
    const handled = alice.locator(`[data-testid="alarm-row"][data-device-name="${FRIDGE}"]`).getByTestId('signature');
    await handled.first().waitFor();
    await expect(handled.first().getByTestId('signature-name').textContent()).resolves.toContain('alice');
    await expect(handled.first().getByTestId('signature-validity').getAttribute('data-valid')).resolves.toBe('true');
    await shot(alice, 'fda-walk-alarm-signed');
    await aliceContext.close();

    // --- a monthly report of the warehouse cold room: carol reviews, acme approves --------------
    const devices = await api<{ data: { deviceId: number; deviceName: string }[] }>('acme', '/device/Device/page',
      { deviceName: WAREHOUSE, pageSize: 10 });
    const warehouse = devices.data.find((d) => d.deviceName === WAREHOUSE)!;
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const report = await api<{ id: number }>('acme', '/device/FdaReport/insert', {
      deviceId: warehouse.deviceId, startTime: `${first.toISOString().slice(0, 19)}+00:00`,
      endTime: `${last.toISOString().slice(0, 19)}+00:00`, title: 'Monthly report, warehouse' });

    const carolContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const carol = await carolContext.newPage();
    await logInPastNotice(carol, baseURL, 'carol');
    await fdaTab(carol, 'reports');
    await carol.getByTestId('fda-subject-select').selectOption({ label: ORGANIZATION });
    const carolsRow = carol.locator(`[data-testid="report-row"][data-report-id="${report.id}"]`);
    await carolsRow.getByTestId('report-review').click();
    await sign(carol, 'carol', 'Readings checked against the limits');
    await expect.poll(() => carolsRow.getAttribute('data-status')).toBe('reviewed');
    await carolContext.close();

    await fdaTab(page, 'reports');
    await page.getByTestId('fda-subject-select').selectOption({ label: ORGANIZATION });
    const row = page.locator(`[data-testid="report-row"][data-report-id="${report.id}"]`);
    await row.getByTestId('report-approve').click();
    await sign(page, 'acme', 'Approved for release');
    await expect.poll(() => row.getAttribute('data-status')).toBe('approved');
    await shot(page, 'fda-walk-report-approved');
    const download = page.waitForEvent('download');
    await row.getByTestId('report-download').click();
    const pdf = join(work, 'report.pdf');
    await (await download).saveAs(pdf);
    const text = execFileSync(python, ['-c', 'import sys, pypdf; print(" ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(sys.argv[1]).pages).split()))', pdf], { encoding: 'utf8' });
    for (const expected of ['carol', 'acme', 'Reviewed', 'Approved', 'Readings checked against the limits', 'Approved for release']) {
      expect(text).toContain(expected);
    }

    // --- a superuser edits an entry of the organization's trail: the verification names it -------
    await fdaTab(page, 'trail');
    await page.getByTestId('fda-subject-select').selectOption({ label: ORGANIZATION });
    const verification = page.getByTestId('trail-verification');
    await expect.poll(() => verification.getAttribute('data-verified')).toBe('true');
    const seq = Number(await page.getByTestId('trail-row').last().getAttribute('data-seq'));
    execFileSync(python, ['-c', `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
operation = db.execute("SELECT operation_id FROM fda_trail_links WHERE chain_key LIKE 'o:%' AND seq = ?", (int(sys.argv[2]),)).fetchone()[0]
db.execute("DROP TRIGGER operation_log_append_only_update")
db.execute("UPDATE operation_log SET actor_name = 'nobody' WHERE id = ?", (operation,))
db.commit()
`, database, String(seq)]);
    await page.getByTestId('trail-verify').click();
    await expect.poll(() => verification.getAttribute('data-verified')).toBe('false');
    await expect(page.getByTestId('trail-first-broken').textContent()).resolves.toContain(String(seq));
    await shot(page, 'fda-walk-trail-broken');
  }, 360_000);

  it('shows the FDA page on a phone in Russian', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 390, height: 844 });
    await logInPastNotice(page, baseURL, 'acme', 'ru-RU');
    for (const tab of ['mode', 'signatures', 'trail', 'reports']) {
      await fdaTab(page, tab);
      await page.getByTestId(`fda-${tab === 'mode' ? 'mode' : tab}`).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the ${tab} tab is wider than the phone`).toBeLessThanOrEqual(0);
      await shot(page, `fda-walk-${tab}-ru-phone`);
    }
  });

  it('approves a waybill of the organization with signatures, in English on a desktop and in Russian on a phone', async () => {
    const organizations = await api<{ organizationId: number; organizationName: string }[]>('acme', '/base/BaseOrganization/list');
    const organizationId = organizations.find((o) => o.organizationName === ORGANIZATION)!.organizationId;
    await api('acme', '/device/FdaRecord/enable', { organizationId }); // on since the first walk: nothing to do then
    const waybill = await api<{ id: number }>('acme', '/device/Waybill/insert', {
      orderNum: 'WB-FDA-2611', goodsName: 'Insulin pens', lowerLimit: 2, upperLimit: 8, organizationId });
    const browser = session.context.browser()!;
    const person = async (user: string, locale: string, timezoneId: string, viewport: { width: number; height: number }) => {
      const context = await browser.newContext({ viewport, locale, timezoneId });
      const page = await context.newPage();
      await logInPastNotice(page, baseURL, user, locale);
      await page.goto(`${baseURL}/waybill/detail/${waybill.id}`);
      return { context, page, card: page.getByTestId('waybill-approval') };
    };
    const signatures = (card: ReturnType<Page['getByTestId']>) => card.getByTestId('signature');

    // --- acme approves in English, in New York -----------------------------------------------------
    const acme = await person('acme', 'en-US', 'America/New_York', { width: 1280, height: 900 });
    await expect.poll(() => acme.card.getAttribute('data-status')).toBe('pending');
    await expect(acme.card.getByTestId('waybill-unsigned').textContent()).resolves.toBe(waybills.en.approval.unsigned);
    await acme.card.getByTestId('waybill-approve').click();
    await expect(acme.page.getByTestId('signature-label').textContent()).resolves.toBe('WB-FDA-2611');
    await sign(acme.page, 'acme', 'Kept at 2-8 °C throughout', 'fda-waybill-signature-en');
    await expect.poll(() => acme.card.getAttribute('data-status')).toBe('approved');
    const byAcme = signatures(acme.card).first();
    await expect(byAcme.getByTestId('signature-name').textContent()).resolves.toContain('acme');
    await expect(byAcme.getByTestId('signature-meaning').textContent()).resolves.toBe('Approved');
    await expect(byAcme.getByTestId('signature-time').textContent()).resolves.toContain('(America/New_York)');
    await expect(byAcme.getByTestId('signature-validity').getAttribute('data-valid')).resolves.toBe('true');
    await expect(acme.card.getByTestId('waybill-approve').count()).resolves.toBe(0); // approved by acme already
    await shot(acme.page, 'fda-waybill-approved-en');
    await acme.context.close();

    // --- carol, an administrator, approves too, in Russian, in Moscow, on a phone -------------------
    const carol = await person('carol', 'ru-RU', 'Europe/Moscow', { width: 375, height: 812 });
    await expect.poll(() => signatures(carol.card).count()).toBe(1);
    await expect(carol.card.getByTestId('waybill-approval-status').textContent()).resolves.toBe(waybills.ru.approval.status.approved);
    await carol.card.getByTestId('waybill-approve').click();
    await sign(carol.page, 'carol', 'Проверено: температура в норме', 'fda-waybill-signature-ru-phone');
    await expect.poll(() => signatures(carol.card).count()).toBe(2);
    const byCarol = signatures(carol.card).last();
    await expect(byCarol.getByTestId('signature-meaning').textContent()).resolves.toBe('Утверждено');
    await expect(byCarol.getByTestId('signature-time').textContent()).resolves.toContain('(Europe/Moscow)');
    await expect(byCarol.getByTestId('signature-reason').textContent()).resolves.toContain('температура в норме');
    await carol.card.scrollIntoViewIfNeeded();
    const overflow = await carol.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'the waybill page is wider than the phone').toBeLessThanOrEqual(0);
    await shot(carol.page, 'fda-waybill-approved-ru-phone');
    await carol.context.close();

    // --- dave, a read-only member named by no endorsement: both manifestations, no approval --------
    const dave = await person('dave', 'ru-RU', 'Europe/Moscow', { width: 1280, height: 900 });
    await expect.poll(() => signatures(dave.card).count()).toBe(2);
    await expect(dave.card.getByTestId('waybill-approve').count()).resolves.toBe(0);
    await dave.card.scrollIntoViewIfNeeded();
    await shot(dave.page, 'fda-waybill-read-only-ru');
    await dave.context.close();
  }, 180_000);

  it("signs a device's export and its retry as their author, and the download centre shows each manifestation", async () => {
    const organizations = await api<{ organizationId: number; organizationName: string }[]>('acme', '/base/BaseOrganization/list');
    const organizationId = organizations.find((o) => o.organizationName === ORGANIZATION)!.organizationId;
    await api('acme', '/device/FdaRecord/enable', { organizationId }); // on since the first walk: nothing to do then
    const devices = await api<{ data: { deviceId: number; deviceName: string }[] }>('acme', '/device/Device/page',
      { deviceName: WAREHOUSE, pageSize: 10 });
    const warehouse = devices.data.find((d) => d.deviceName === WAREHOUSE)!;
    const browser = session.context.browser()!;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'Europe/Berlin' });
    const page = await context.newPage();
    await logInPastNotice(page, baseURL, 'acme');

    // --- the export button: the organization's switch says FDA mode is on, the dialog asks first ---
    await page.goto(`${baseURL}/device/detail/${warehouse.deviceId}`);
    await page.getByTestId('device-export').click();
    await page.getByTestId('export-submit').click();
    await sign(page, 'acme', 'Weekly data for QA', 'fda-export-signature');
    await page.waitForURL((url) => url.pathname === '/consumer/download');
    const row = page.getByTestId('download-row').first();
    await expect.poll(() => row.getAttribute('data-status')).toBe('ready'); // APP_ENV=test writes it in the request
    const signed = row.getByTestId('signature');
    await signed.waitFor();
    await expect(signed.getByTestId('signature-name').textContent()).resolves.toContain('acme');
    await expect(signed.getByTestId('signature-meaning').textContent()).resolves.toBe('Authored');
    await expect(signed.getByTestId('signature-time').textContent()).resolves.toContain('(Europe/Berlin)');
    await expect(signed.getByTestId('signature-reason').textContent()).resolves.toContain('Weekly data for QA');
    await shot(page, 'fda-export-signed');

    // --- the export fails (its file could not be written); its retry is signed as a new export -------
    const [first] = (await api<{ data: { id: string }[] }>('acme', '/device/DeviceDataExport/page', { start: 1, pageSize: 1 })).data;
    execFileSync(python, ['-c', `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE exports SET status = 'failed', progress = 0, file_name = NULL, size = NULL, error = 'The file could not be written' WHERE id = ?", (sys.argv[2],))
db.commit()
`, database, first!.id]);
    await page.reload();
    await expect.poll(() => row.getAttribute('data-status')).toBe('failed');
    await row.getByTestId('download-retry').click();
    const dialog = page.getByTestId('signature-dialog');
    await expect(dialog.getByTestId('signature-label').textContent()).resolves.toContain(WAREHOUSE);
    await expect(dialog.getByTestId('signature-intro').textContent()).resolves.toContain(downloads.signIntro);
    await sign(page, 'acme', 'Asked again after a write failure', 'fda-export-retry-signature');
    await expect.poll(() => row.getAttribute('data-status')).toBe('ready');
    await expect(page.getByTestId('download-row').count()).resolves.toBe(1); // the failed one deleted
    await expect(row.getByTestId('signature-reason').textContent()).resolves.toContain('Asked again after a write failure');
    const [again] = (await api<{ data: { id: string }[] }>('acme', '/device/DeviceDataExport/page', { start: 1, pageSize: 1 })).data;
    expect(again!.id).not.toBe(first!.id);
    const onRecord = await api<{ meaning: string; signerLogin: string }[]>('acme',
      `/device/FdaRecord/recordSignatures?recordType=export&recordId=${again!.id}`);
    expect(onRecord).toMatchObject([{ meaning: 'authored', signerLogin: 'acme' }]);
    await shot(page, 'fda-export-retried');
    await context.close();

    // --- on a phone, in Russian: the manifestation fits ------------------------------------------------
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'ru-RU', timezoneId: 'Europe/Moscow' });
    const small = await phone.newPage();
    await logInPastNotice(small, baseURL, 'acme', 'ru-RU');
    await small.goto(`${baseURL}/consumer/download`);
    await small.getByTestId('download-row').first().getByTestId('signature').waitFor();
    const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'the download centre is wider than the phone').toBeLessThanOrEqual(0);
    await shot(small, 'fda-export-signed-ru-phone');
    await phone.close();
  }, 180_000);
});
