/**
 * Buying SMS packages with an invoice in a real browser against `coldchain serve` with demo data
 * (the domestic edition and the test server's development payment gateway: its QR code is a signed
 * pay link, which the test opens as a payer's phone would), and the invoice form refusing bad
 * input. Screenshots go to var/screenshots/.
 *
 * Only alice's "Truck 12 tracker" is used (the other suites use the cold rooms, the vaccine fridge
 * and the freezer); every expectation is relative to what the test read before acting, since the
 * suites share one database in no set order.
 */
import type { Locator, Page, Request, Response } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('baseURL');
const DEVICE = 'Truck 12 tracker';

const en = readLocale('recharge/alertsLocales', 'en-US').rechargeAlerts;
const zh = readLocale('recharge/alertsLocales', 'zh-CN').rechargeAlerts;
const enRecharge = readLocale('recharge/locales', 'en-US').recharge;
const zhRecharge = readLocale('recharge/locales', 'zh-CN').recharge;

const session = browserSession();
let page: Page;
/** Every request that saves invoice details (insert or update). */
let billSaves: Request[];
/** Every SMS order placed, as the server answered it. */
let smsOrders: Response[];
beforeEach(() => {
  page = session.page;
  billSaves = [];
  smsOrders = [];
  page.on('request', (request) => {
    if (/\/api\/payment\/PayUserBill\/(insert|update)/.test(request.url())) billSaves.push(request);
  });
  page.on('response', (response) => {
    if (isCall('/payment/PayOrder/createSmsOrder')(response)) smsOrders.push(response);
  });
});

const isCall = (path: string) => (r: Request | { url(): string }) => new URL(r.url()).pathname === `/api${path}`;

/** `expect.poll` giving the page and the server time enough (its default is one second). */
const poll = <T>(fn: () => T | Promise<T>, message?: string) => expect.poll(fn, { timeout: 10_000, message });

/** Opens the recharge drawer of `deviceName` from the device list. */
async function openRecharge(deviceName: string): Promise<Locator> {
  await page.goto(`${baseURL}/device/list`);
  const row = page.locator(`[data-testid="device-row"][data-device-name="${deviceName}"]`);
  await row.locator('a[href*="/consumer/recharge?deviceIds="]').click();
  const drawer = page.getByTestId('recharge-drawer');
  await drawer.waitFor();
  await poll(() => drawer.getByTestId('header-name').innerText()).toContain(deviceName);
  return drawer;
}

/** The SMS count in the recharge drawer's header. */
async function smsCount(): Promise<number> {
  return Number(await page.getByTestId('sms-count').innerText());
}

/** The caller's saved invoice details, asked of the API with the browser's session. */
async function savedBills(): Promise<{ billId: number; personalName: string | null; companyName: string | null }[]> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('jc__token') ?? '{}').value as string);
  const response = await page.request.post(`${baseURL}/api/payment/PayUserBill/selectListByDomain`, {
    headers: { Authorization: `Bearer ${token}` },
    data: {},
  });
  expect(response.ok()).toBe(true);
  return (await response.json()).data;
}

/** A text field of the invoice form: its input, its form group, and the message under it. */
function field(form: Locator, id: string) {
  const group = form.locator('.bp6-form-group').filter({ has: page.locator(`#${id}`) });
  return { input: form.locator(`#${id}`), group, message: group.locator('.bp6-form-helper-text') };
}

const IDS = {
  companyName: 'jc-invoice-company',
  taxNumber: 'jc-invoice-tax',
  personalName: 'jc-invoice-personal',
  bankDeposit: 'jc-invoice-bank',
  billUserName: 'jc-invoice-recipient',
  billMail: 'jc-invoice-mail',
  billPhone: 'jc-invoice-phone',
  billAddress: 'jc-invoice-address',
} as const;
type Field = keyof typeof IDS;

/** The text fields the form shows, in their order on the page. */
async function shownFields(form: Locator): Promise<Field[]> {
  const ids = await form.locator('input[id^="jc-invoice-"]').evaluateAll((inputs) => inputs.map((input) => input.id));
  const byId = Object.fromEntries(Object.entries(IDS).map(([name, id]) => [id, name])) as Record<string, Field>;
  return ids.map((id) => byId[id]!);
}

/** Expects exactly these messages under these fields (and none under the others shown). */
async function expectMessages(form: Locator, messages: Partial<Record<Field, string>>): Promise<void> {
  for (const name of await shownFields(form)) {
    const { input, message } = field(form, IDS[name]);
    const expected = messages[name];
    if (expected === undefined) {
      await poll(() => message.count(), `no message under ${name}`).toBe(0);
      await expect(input.getAttribute('aria-invalid')).resolves.toBeNull();
    } else {
      await poll(() => message.innerText().catch(() => null), `the message under ${name}`).toBe(expected);
      await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
      // under its field, not beside or above it
      const [box, text] = await Promise.all([input.boundingBox(), message.boundingBox()]);
      expect(text!.y).toBeGreaterThanOrEqual(box!.y + box!.height);
      expect(Math.abs(text!.x - box!.x)).toBeLessThan(2);
    }
  }
  for (const name of Object.keys(messages) as Field[]) {
    expect(await shownFields(form), `${name} is shown`).toContain(name);
  }
}

/** Clicks a radio or switch of Blueprint by its label (the input itself is visually hidden). */
async function choose(scope: Locator, label: string): Promise<void> {
  await scope.locator('label').filter({ hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }).click();
  await poll(() => scope.getByRole('radio', { name: label, exact: true }).isChecked()).toBe(true);
}

/** Opens the SMS/voice drawer from the recharge drawer and turns its invoice option on. */
async function openSmsDrawer(recharge: Locator, buyAlerts: string): Promise<{ sms: Locator; option: Locator }> {
  const link = recharge.getByTestId('buy-alerts');
  await poll(() => link.innerText()).toBe(buyAlerts);
  await link.click();
  const sms = page.getByTestId('sms-drawer');
  await sms.waitFor();
  await poll(() => sms.getByTestId('sms-devices').innerText()).toContain(DEVICE);
  return { sms, option: sms.getByTestId('invoice-option') };
}

describe('SMS packages', () => {
  it('buys an SMS package with an invoice, adding the invoice details first', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    const recharge = await openRecharge(DEVICE);
    const before = await smsCount();
    const billsBefore = await savedBills();

    const { sms, option } = await openSmsDrawer(recharge, enRecharge.header.buyAlerts);
    // the drawer stands on the recharge drawer and lists the device with what it has left
    await poll(() => sms.getByTestId('sms-devices').innerText()).toContain(en.sms.smsLeft_other.replace('{{count}}', String(before)));
    await poll(() => sms.getByTestId('payment-placeholder').innerText()).toBe(en.sms.chooseFirst);

    // the first SMS package; the order (no invoice) gets its code
    const smsPackages = sms.getByRole('group', { name: en.sms.smsPackages }).locator('button[data-testid^="sms-package-"]');
    await poll(() => smsPackages.count()).toBeGreaterThan(0);
    const chosen = smsPackages.first();
    const bought = parseInt(await chosen.locator('.jc-sms-count').innerText(), 10);
    const price = await chosen.locator('.jc-sms-price').innerText();
    expect(bought).toBeGreaterThan(0);
    await chosen.click();
    await poll(() => chosen.getAttribute('aria-pressed')).toBe('true');
    await poll(() => sms.getByTestId('payment-total').innerText()).toBe(price);
    await poll(() => sms.getByTestId('sms-summary').innerText())
      .toContain(en.sms[bought === 1 ? 'messages_one' : 'messages_other'].replace('{{count}}', String(bought)));
    await sms.getByTestId('payment-qr').waitFor({ timeout: 15_000 });
    await poll(() => smsOrders.length).toBe(1);
    expect(smsOrders[0]!.request().postDataJSON()).toMatchObject({ applyFlag: false, smsCount: bought });
    await shot(page, 'e2e-sms-package');

    // the invoice option on: with no invoice details saved, the code goes until some are added
    // (the seed has none for alice, and the other test saves none; saved ones would be chosen)
    await option.locator('label').filter({ hasText: en.invoice.want }).click();
    await poll(() => option.getByRole('checkbox').isChecked()).toBe(true);
    if (billsBefore.length === 0) {
      await poll(() => option.getByText(en.invoice.noneSaved, { exact: true }).count()).toBe(1);
      await poll(() => sms.getByTestId('payment-qr').count()).toBe(0);
      await poll(() => sms.getByTestId('payment-placeholder').innerText()).toBe(en.sms.chooseInvoice);
    }

    // add invoice details: the drawer, 700 wide, starts personal and by e-mail
    await option.getByRole('button', { name: en.invoice.add, exact: true }).click();
    const form = page.getByTestId('invoice-form');
    await form.waitFor();
    const drawer = page.locator('.jc-invoice-drawer');
    await poll(async () => (await drawer.boundingBox())?.width).toBe(700);
    await poll(() => drawer.locator('.bp6-heading').first().innerText()).toBe(en.invoice.addTitle);
    expect(await shownFields(form)).toEqual(['personalName', 'billUserName', 'billPhone', 'billMail']);
    await expect(form.getByRole('radio', { name: en.invoice.personal, exact: true }).isChecked()).resolves.toBe(true);
    await expect(form.getByRole('radio', { name: en.invoice.byEmail, exact: true }).isChecked()).resolves.toBe(true);
    const save = form.getByRole('button', { name: en.invoice.save, exact: true });

    // nothing filled in (blanks only count as nothing): every field says what it needs
    await field(form, IDS.personalName).input.fill('   ');
    await save.click();
    await expectMessages(form, {
      personalName: en.invoice.required.personalName,
      billUserName: en.invoice.required.billUserName,
      billPhone: en.invoice.required.billPhone,
      billMail: en.invoice.required.billMail,
    });
    // the first refused field has the focus
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe(IDS.personalName);
    await shot(page, 'e2e-invoice-required');

    // a name too long, a phone that is no mainland mobile, a malformed e-mail
    await field(form, IDS.personalName).input.fill('Alice Example of the Cold Chain Co'); // 34 characters
    await field(form, IDS.billUserName).input.fill('Alice');
    await field(form, IDS.billPhone).input.fill('12345678901');
    await field(form, IDS.billMail).input.fill('alice@example');
    await save.click();
    await expectMessages(form, {
      personalName: en.invoice.tooLong.replace('{{max}}', '30'),
      billPhone: en.invoice.phoneMainland,
      billMail: en.invoice.emailInvalid,
    });
    await shot(page, 'e2e-invoice-refused');
    expect(billSaves).toEqual([]);
    expect(await savedBills()).toEqual(billsBefore);

    // corrected: saved, said so, and chosen for the order
    const name = `Alice Li ${Date.now().toString(36)}`;
    await field(form, IDS.personalName).input.fill(`  ${name}  `);
    await field(form, IDS.billPhone).input.fill('13800000001');
    await field(form, IDS.billMail).input.fill('alice@example.com');
    await expectMessages(form, {});
    const ordersBefore = smsOrders.length;
    const [inserted] = await Promise.all([
      page.waitForResponse(isCall('/payment/PayUserBill/insert')),
      save.click(),
    ]);
    expect(billSaves).toHaveLength(1);
    expect(billSaves[0]!.postDataJSON()).toEqual({
      invoiceType: 1,
      billMode: 2,
      billDefaultStatus: 0,
      personalName: name,
      billUserName: 'Alice',
      billPhone: '13800000001',
      billMail: 'alice@example.com',
      companyName: null,
      taxNumber: null,
      bankDeposit: null,
      billAddress: null,
    });
    const bill = (await inserted.json()).data as { billId: number };
    await form.waitFor({ state: 'detached' });
    await poll(() => page.getByText(en.invoice.added, { exact: true }).count()).toBeGreaterThan(0);
    const select = option.getByRole('combobox', { name: en.invoice.choose });
    await poll(() => select.inputValue()).toBe(String(bill.billId));
    await poll(() => select.locator('option:checked').innerText()).toBe(`${name} · ${en.invoice.personal} · alice@example.com`);
    await poll(async () => (await savedBills()).length).toBe(billsBefore.length + 1);

    // the order with the invoice gets its code: a signed pay link of the development gateway
    // one more order, with the invoice (none while the invoice option had no details)
    await poll(() => smsOrders.length).toBe(ordersBefore + 1);
    const ordered = smsOrders[ordersBefore]!;
    const fields = ordered.request().postDataJSON();
    expect(fields).toMatchObject({ applyFlag: true, billId: bill.billId, smsCount: bought, voiceCount: 0, countryCode: '86' });
    const placed = (await ordered.json()).data as { orderCode: string; totalFee: number };
    const qr = sms.getByTestId('payment-qr');
    await qr.waitFor({ timeout: 15_000 });
    const payCode = () => qr.getAttribute('data-pay-code', { timeout: 1_000 }).catch(() => null);
    await poll(async () => new URL((await payCode()) ?? 'x:').searchParams.get('order')).toBe(placed.orderCode);
    const link = new URL((await payCode()) ?? '');
    expect(link.pathname).toBe('/api/payment/development/pay');
    expect(link.searchParams.get('order')).toBe(placed.orderCode);
    expect(Number(link.searchParams.get('amount'))).toBe(fields.totalFee);
    expect(placed.totalFee).toBe(fields.totalFee);
    expect(link.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    await poll(() => sms.getByTestId('payment-total').innerText()).toBe(price);
    await shot(page, 'e2e-sms-invoice-paying');

    // the payer's phone opens the code (on the test server's own address)
    const paid = await page.request.get(`${baseURL}${link.pathname}${link.search}`);
    expect(paid.ok()).toBe(true);
    await sms.waitFor({ state: 'detached', timeout: 15_000 });
    await poll(() => page.getByText(`${en.sms.paid} ${en.sms.invoiceRequested}`, { exact: true }).count())
      .toBeGreaterThan(0);
    await poll(smsCount).toBe(before + bought);
    await shot(page, 'e2e-sms-paid');
  });

  it('refuses bad invoice details field by field, in the user\'s language, and saves nothing', async () => {
    await logInPastNotice(page, baseURL, 'alice', 'zh-CN');
    const recharge = await openRecharge(DEVICE);
    const before = await smsCount();
    const billsBefore = await savedBills();
    const { sms, option } = await openSmsDrawer(recharge, zhRecharge.header.buyAlerts);
    await option.locator('label').filter({ hasText: zh.invoice.want }).click();
    await poll(() => option.getByRole('checkbox').isChecked()).toBe(true);
    await option.getByRole('button', { name: zh.invoice.add, exact: true }).click();
    const form = page.getByTestId('invoice-form');
    await form.waitFor();
    const save = form.getByRole('button', { name: zh.invoice.save, exact: true });
    const heading = (text: string) => form.locator('.jc-drawer-subtitle').filter({ hasText: new RegExp(`^${text}$`) });

    // personal by e-mail: the name on the invoice, then the recipient, phone and e-mail
    expect(await shownFields(form)).toEqual(['personalName', 'billUserName', 'billPhone', 'billMail']);
    await poll(() => heading(zh.invoice.personalSection).count()).toBe(1);
    await poll(() => heading(zh.invoice.emailSection).count()).toBe(1);

    // enterprise: company, tax number and bank instead of the name
    await choose(form, zh.invoice.enterprise);
    await poll(() => shownFields(form)).toEqual(['companyName', 'taxNumber', 'bankDeposit', 'billUserName', 'billPhone', 'billMail']);
    await poll(() => heading(zh.invoice.enterpriseSection).count()).toBe(1);
    // by post: the address instead of the e-mail
    await choose(form, zh.invoice.byPost);
    await poll(() => shownFields(form)).toEqual(['companyName', 'taxNumber', 'bankDeposit', 'billUserName', 'billPhone', 'billAddress']);
    await poll(() => heading(zh.invoice.postSection).count()).toBe(1);
    await poll(() => field(form, IDS.taxNumber).input.getAttribute('placeholder')).toBe(zh.invoice.taxNumberHint);
    await poll(() => field(form, IDS.billPhone).input.getAttribute('placeholder')).toBe(zh.invoice.phoneMainlandHint);

    // nothing filled in: each field's own message, in Chinese
    await save.click();
    await expectMessages(form, {
      companyName: zh.invoice.required.companyName,
      taxNumber: zh.invoice.required.taxNumber,
      bankDeposit: zh.invoice.required.bankDeposit,
      billUserName: zh.invoice.required.billUserName,
      billPhone: zh.invoice.required.billPhone,
      billAddress: zh.invoice.required.billAddress,
    });
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe(IDS.companyName);
    await shot(page, 'e2e-invoice-required-zh');

    // a tax number with a dash, a company name and an address too long, a phone too short
    await field(form, IDS.companyName).input.fill('冷链'.repeat(26)); // 52 characters
    await field(form, IDS.taxNumber).input.fill('91310000-MA1FL0001');
    await field(form, IDS.bankDeposit).input.fill('中国银行上海分行 6222 0000 0000 0000');
    await field(form, IDS.billUserName).input.fill('李爱丽');
    await field(form, IDS.billPhone).input.fill('1380000');
    await field(form, IDS.billAddress).input.fill('上海市浦东新区'.repeat(8)); // 56 characters
    await save.click();
    await expectMessages(form, {
      companyName: zh.invoice.tooLong.replace('{{max}}', '50'),
      taxNumber: zh.invoice.taxNumberChars,
      billPhone: zh.invoice.phoneMainland,
      billAddress: zh.invoice.tooLong.replace('{{max}}', '50'),
    });
    await shot(page, 'e2e-invoice-refused-zh');

    // checked again as it is typed: a tax number too long says so
    await field(form, IDS.taxNumber).input.fill('91310000MA1FL000012345');
    await expectMessages(form, {
      companyName: zh.invoice.tooLong.replace('{{max}}', '50'),
      taxNumber: zh.invoice.tooLong.replace('{{max}}', '20'),
      billPhone: zh.invoice.phoneMainland,
      billAddress: zh.invoice.tooLong.replace('{{max}}', '50'),
    });

    // back to personal by e-mail: the company fields and the address go, and their messages with them
    await choose(form, zh.invoice.personal);
    await choose(form, zh.invoice.byEmail);
    await poll(() => shownFields(form)).toEqual(['personalName', 'billUserName', 'billPhone', 'billMail']);
    await field(form, IDS.billMail).input.fill('li@例子');
    await save.click();
    await expectMessages(form, {
      personalName: zh.invoice.required.personalName,
      billPhone: zh.invoice.phoneMainland,
      billMail: zh.invoice.emailInvalid,
    });
    await shot(page, 'e2e-invoice-personal-zh');

    // cancelled: nothing was sent or saved, and the form starts afresh when opened again
    await form.getByRole('button', { name: zh.cancel, exact: true }).click();
    await form.waitFor({ state: 'detached' });
    expect(billSaves).toEqual([]);
    expect(await savedBills()).toEqual(billsBefore);
    if (billsBefore.length === 0) {
      await poll(() => option.getByText(zh.invoice.noneSaved, { exact: true }).count()).toBe(1);
    } else {
      await poll(() => option.getByRole('combobox').locator('option:not([disabled])').count()).toBe(billsBefore.length);
    }
    await option.getByRole('button', { name: zh.invoice.add, exact: true }).click();
    await form.waitFor();
    expect(await shownFields(form)).toEqual(['personalName', 'billUserName', 'billPhone', 'billMail']);
    await expectMessages(form, {});
    for (const name of await shownFields(form)) {
      await expect(field(form, IDS[name]).input.inputValue()).resolves.toBe('');
    }
    await form.getByRole('button', { name: zh.cancel, exact: true }).click();
    await form.waitFor({ state: 'detached' });
    // the device's SMS are untouched
    await poll(() => sms.getByTestId('sms-devices').innerText()).toContain(
      zh.sms.smsLeft_other.replace('{{count}}', String(before)),
    );
  });
});
