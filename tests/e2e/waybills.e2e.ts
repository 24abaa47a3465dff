/**
 * Waybills in a real browser against `coldchain serve` with demo data: alice makes a waybill in
 * English (saving its particulars as a template too), binds her device from the picker, starts the
 * trip, sees it in progress on the list and the detail, makes a share link (shown once) and revokes
 * it, finishes the trip and downloads its PDF report; then the list and the detail in Russian on a
 * desktop and a 375 px phone, with nothing to scroll sideways; a waybill that starts on leaving a
 * fence made for the test, chosen in the form and named on the detail (English at 1280 px, Russian
 * at 375 px). Screenshots go to var/screenshots/. Every waybill, template and fence the suite made
 * is deleted afterwards by API, even when a test fails.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { asUser, browserSession, logInPastNotice, preferLanguage, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const session = browserSession();
/** What this suite names its waybills, templates and fences by, to find and delete them afterwards. */
const MARK = 'E2E-WB';

interface Row { id: number; orderNum?: string | null; templateName?: string; name?: string }

async function call<T>(headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL}/api${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
  const answer = (await response.json()) as { code: number; data: T; msg: string };
  if (answer.code !== 0) throw new Error(`${method} ${path}: ${answer.msg}`);
  return answer.data;
}

afterAll(async () => {
  await asUser(baseURL, 'alice', 'en-US', async (headers) => {
    const waybills = await call<{ data: Row[] }>(headers, 'POST', '/device/Waybill/page', { start: 1, pageSize: 100, keyword: MARK });
    for (const row of waybills.data) await call(headers, 'DELETE', `/device/Waybill/delete?id=${row.id}`);
    const templates = await call<{ data: Row[] }>(headers, 'POST', '/device/WaybillTemplate/page', { start: 1, pageSize: 100 });
    for (const row of templates.data.filter((t) => t.templateName?.startsWith(MARK))) {
      await call(headers, 'DELETE', `/device/WaybillTemplate/delete?id=${row.id}`);
    }
    const left = await call<{ totalCount: number }>(headers, 'POST', '/device/Waybill/page', { start: 1, pageSize: 10, keyword: MARK });
    expect(left.totalCount).toBe(0);
    // the fences after the waybills that named them
    const fences = await call<{ data: Row[] }>(headers, 'POST', '/device/DeviceFence/page', { start: 1, pageSize: 100, keyword: MARK });
    for (const row of fences.data) await call(headers, 'DELETE', `/device/DeviceFence/delete?id=${row.id}`);
  });
});

/** The service expiry reminder, shown once after login, leaves the part a screenshot is about in view. */
async function hideReminder() {
  const reminder = session.page.locator('.jc-expiry-reminder');
  if (await reminder.isVisible()) await reminder.getByRole('button').last().click();
}

const noSidewaysScroll = async () => session.page.evaluate(
  () => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('waybills', () => {
  it('makes a waybill, binds a device, starts it, shares it, finishes it and downloads its PDF (en-US)', async () => {
    const { page } = session;
    const strings = readLocale('waybills/locales', 'en-US');
    const order = `${MARK}-EN`;
    await page.setViewportSize({ width: 1280, height: 900 });
    await logInPastNotice(page, baseURL, 'alice', 'en-US');
    expect(await page.locator('a[href="/waybill/list"]').count()).toBeGreaterThan(0);
    await page.goto(`${baseURL}/waybill/list`);
    await page.getByTestId('waybills-page').waitFor();

    await page.getByTestId('waybill-add').click();
    await page.getByTestId('waybill-orderNum').fill('x'.repeat(21));
    await page.getByText(strings.error.length.replace('{{max}}', '20')).first().waitFor();
    await page.getByTestId('waybill-orderNum').fill(order);
    await page.getByTestId('waybill-goodsName').fill('Flu vaccines');
    await page.getByTestId('waybill-lowerLimit').fill('8');
    await page.getByTestId('waybill-upperLimit').fill('2');
    await page.getByText(strings.error.limits).waitFor();
    await page.getByTestId('waybill-lowerLimit').fill('2');
    await page.getByTestId('waybill-upperLimit').fill('8');
    await page.getByTestId('waybill-senderName').fill('Central pharmacy');
    await page.getByTestId('waybill-receiverName').fill('City clinic');
    await page.getByTestId('waybill-contact-add').click();
    await page.getByTestId('waybill-alarmContacts-0-name').fill('Alice');
    await page.getByTestId('waybill-alarmContacts-0-phone').fill('+86 138 0000 0000');
    await page.getByTestId('waybill-picker-search').fill('Cold room A');
    await page.getByTestId('waybill-picker').getByText('Cold room A logger').last().click();
    await page.getByTestId('waybill-template-name').fill(`${MARK} vaccines`);
    await page.getByTestId('waybill-template-save').click();
    await page.getByText(strings.templateSaved.replace('{{name}}', `${MARK} vaccines`)).waitFor();
    await shot(page, 'waybills-drawer-en-US-1280');
    await page.getByTestId('waybill-save').click();

    await page.getByTestId('waybill-title').filter({ hasText: order }).waitFor();
    await page.getByTestId('waybill-device').filter({ hasText: 'Cold room A logger' }).waitFor();
    await page.getByTestId('waybill-start').click();
    await page.getByTestId('waybill-state-confirm').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: strings.action.start }).click();
    await page.getByTestId('waybill-state').filter({ hasText: strings.state['1'] }).waitFor();
    await page.getByTestId('waybill-report').waitFor();
    await shot(page, 'waybills-detail-running-en-US-1280');

    await page.getByTestId('waybill-back').click();
    const row = page.getByTestId('waybill-row').filter({ hasText: order });
    await row.getByTestId('waybill-state').filter({ hasText: strings.state['1'] }).waitFor();
    await shot(page, 'waybills-list-en-US-1280');
    await page.getByTestId('waybill-state-filter').selectOption('1');
    await row.waitFor();
    const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('waybill-export').click()]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    await row.getByTestId('waybill-open').click();

    await page.getByTestId('waybill-share').click();
    await page.getByTestId('waybill-share-validity').selectOption('8h');
    await page.getByTestId('waybill-share-create').click();
    const url = await page.getByTestId('waybill-share-url').inputValue();
    expect(url).toMatch(/\/mobileQuick\/query\/detail\?share=.+/);
    await page.getByTestId('waybill-share-link').waitFor();
    await shot(page, 'waybills-share-en-US-1280');
    // the receiver, not logged in, on a phone: the trip opens from the link, and no longer once revoked
    const receiver = await session.context.browser()!.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US' });
    const phone = await receiver.newPage();
    await phone.goto(url);
    await phone.getByTestId('trip-view').waitFor();
    await phone.getByTestId('trip-route').scrollIntoViewIfNeeded();
    await shot(phone, 'waybills-shared-route-375');
    await page.getByTestId('waybill-share-revoke').click();
    await page.getByTestId('waybill-share-link').filter({ hasText: strings.share.inactive }).waitFor();
    await phone.reload();
    await phone.getByTestId('quick-gone').waitFor();
    await receiver.close();
    await page.getByRole('dialog').getByRole('button', { name: strings.close }).last().click();

    await page.getByTestId('waybill-finish').click();
    await page.getByRole('alertdialog').getByRole('button', { name: strings.action.finish }).click();
    await page.getByTestId('waybill-state').filter({ hasText: strings.state['2'] }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('waybill-pdf').click()]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    await shot(page, 'waybills-detail-finished-en-US-1280');
  });

  for (const width of [1280, 375]) {
    it(`shows the list and a waybill's detail in Russian with nothing to scroll sideways (${width} px)`, async () => {
      const { page } = session;
      const strings = readLocale('waybills/locales', 'ru-RU');
      const order = `${MARK}-RU-${width}`;
      const id = await asUser(baseURL, 'alice', 'ru-RU', async (headers) => {
        const devices = await call<{ data: { deviceId: number; deviceName: string }[] }>(
          headers, 'POST', '/device/Device/page', { start: 1, pageSize: 10, deviceName: 'Cold room B' });
        const made = await call<{ id: number }>(headers, 'POST', '/device/Waybill/insert', {
          orderNum: order, goodsName: 'Инсулин', upperLimit: 8, lowerLimit: 2, senderName: 'Аптека', receiverName: 'Клиника' });
        await call(headers, 'POST', '/device/Waybill/batchBind', { id: made.id, deviceIds: [devices.data[0]!.deviceId] });
        return made.id;
      });
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'alice', 'ru-RU');
      await page.goto(`${baseURL}/waybill/list`);
      const row = page.getByTestId('waybill-row').filter({ hasText: order });
      await row.getByTestId('waybill-state').filter({ hasText: strings.state['0'] }).waitFor();
      await shot(page, `waybills-list-ru-RU-${width}`);
      expect(await noSidewaysScroll()).toBeLessThanOrEqual(0);
      await page.goto(`${baseURL}/waybill/detail/${id}`);
      await page.getByTestId('waybill-title').filter({ hasText: order }).waitFor();
      await page.getByTestId('waybill-report').waitFor();
      await shot(page, `waybills-detail-ru-RU-${width}`);
      expect(await noSidewaysScroll()).toBeLessThanOrEqual(0);
      await hideReminder();
      await page.getByTestId('waybill-route').evaluate((section) => section.scrollIntoView({ block: 'center' }));
      await shot(page, `waybills-route-ru-RU-${width}`);
      await page.getByTestId('waybill-edit').click();
      await page.getByTestId('waybill-orderNum').waitFor();
      await shot(page, `waybills-drawer-ru-RU-${width}`);
      const drawerOverflow = await page.getByTestId('waybill-form').evaluate((form) => form.scrollWidth - form.clientWidth);
      expect(drawerOverflow).toBeLessThanOrEqual(0);
    });
  }

  for (const [language, width] of [['en-US', 1280], ['ru-RU', 375]] as const) {
    it(`starts a waybill on leaving an origin fence chosen in the form and names it on the detail (${language}, ${width} px)`,
      async () => {
        const { page } = session;
        const strings = readLocale('waybills/locales', language);
        const order = `${MARK}-FENCE-${width}`;
        const fenceName = `${MARK} depot ${width}`;
        await asUser(baseURL, 'alice', language, (headers) => call(headers, 'POST', '/device/DeviceFence/insert', {
          name: fenceName, areas: [{ shape: 'circle', lat: 31.2304, lon: 121.4737, radius: 500 }] }));
        await page.setViewportSize({ width, height: 900 });
        await logInPastNotice(page, baseURL, 'alice', language);
        await page.goto(`${baseURL}/waybill/list`);
        await page.getByTestId('waybills-page').waitFor();
        await page.getByTestId('waybill-add').click();
        await page.getByTestId('waybill-orderNum').fill(order);
        const origin = page.getByTestId('waybill-originFenceId');
        await expect.poll(() => origin.isEnabled()).toBe(true);
        expect(await origin.inputValue()).toBe('');
        await origin.selectOption({ label: fenceName });
        expect(await page.getByTestId('waybill-destinationFenceId').inputValue()).toBe('');
        await hideReminder();
        await origin.evaluate((select) => select.scrollIntoView({ block: 'center' }));
        await shot(page, `waybills-drawer-fences-${language}-${width}`);
        const drawerOverflow = await page.getByTestId('waybill-form').evaluate((form) => form.scrollWidth - form.clientWidth);
        expect(drawerOverflow).toBeLessThanOrEqual(0);
        await page.getByTestId('waybill-save').click();

        await page.getByTestId('waybill-title').filter({ hasText: order }).waitFor();
        const particular = page.locator('.jc-wb-fields > div').filter({ hasText: strings.field.originFence });
        await particular.locator('dd').filter({ hasText: fenceName }).waitFor();
        expect(await page.locator('.jc-wb-fields dt').filter({ hasText: strings.field.destinationFence }).count()).toBe(0);
        await particular.evaluate((row) => row.scrollIntoView({ block: 'center' }));
        await shot(page, `waybills-detail-fence-${language}-${width}`);
        expect(await noSidewaysScroll()).toBeLessThanOrEqual(0);
        // the edit form shows the fence the waybill has
        await page.getByTestId('waybill-edit').click();
        await expect.poll(() => page.getByTestId('waybill-originFenceId').inputValue()).not.toBe('');
        expect(await page.getByTestId('waybill-originFenceId').locator('option:checked').textContent()).toBe(fenceName);
      });
  }
});

describe('the demo delivery', () => {
  it("shows alice's finished delivery with its fences and the truck's route, on her detail and on the receiver's phone", async () => {
    const { page } = session;
    const strings = readLocale('waybills/locales', 'en-US');
    await page.setViewportSize({ width: 1280, height: 900 });
    await logInPastNotice(page, baseURL, 'alice', 'en-US');
    await page.goto(`${baseURL}/waybill/list`);
    const row = page.getByTestId('waybill-row').filter({ hasText: 'WB-DEMO-0001' });
    await row.getByTestId('waybill-state').filter({ hasText: strings.state['2'] }).waitFor();
    await row.getByTestId('waybill-open').click();
    await page.getByTestId('waybill-title').filter({ hasText: 'WB-DEMO-0001' }).waitFor();
    for (const [label, name] of [[strings.field.originFence, 'Depot'], [strings.field.destinationFence, 'City clinic']]) {
      await page.locator('.jc-wb-fields > div').filter({ hasText: label }).locator('dd').filter({ hasText: name }).waitFor();
    }
    const route = page.getByTestId('waybill-route');
    await route.getByTestId('route-legend-device').filter({ hasText: 'Truck 12 tracker' }).waitFor();
    await route.locator('path.leaflet-interactive').first().waitFor();
    await route.evaluate((section) => section.scrollIntoView({ block: 'center' }));
    await hideReminder();
    await shot(page, 'waybills-demo-route-en-US-1280');

    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await asUser(baseURL, 'alice', 'en-US', async (headers) => {
      const link = await call<{ shareId: number; token: string }>(headers, 'POST', '/device/Waybill/share', { id, validity: '8h' });
      const receiver = await session.context.browser()!.newContext({ viewport: { width: 375, height: 800 }, locale: 'ru-RU' });
      try {
        const phone = await receiver.newPage();
        await preferLanguage(phone, 'ru-RU');
        await phone.goto(`${baseURL}/mobileQuick/query/detail?share=${link.token}`);
        const shared = phone.getByTestId('trip-route');
        await shared.getByText(readLocale('quickquery/locales', 'ru-RU').route.title).waitFor();
        await shared.locator('path.leaflet-interactive').first().waitFor();
        await shared.evaluate((section) => section.scrollIntoView({ block: 'center' }));
        await shot(phone, 'waybills-demo-shared-route-ru-RU-375');
        expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      } finally {
        await receiver.close();
        await call(headers, 'POST', '/device/Waybill/shareRevoke', { shareId: link.shareId });
      }
    });
  });
});
