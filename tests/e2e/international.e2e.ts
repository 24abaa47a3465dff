/**
 * Paying for a device's service in the international edition, in a real browser, end to end
 * against the real payment adapters (stripe, paypal-server-sdk) and the local payment sandbox
 * (see server.ts): the console opens the sandbox's payer page in a new window, as it would open
 * PayPal's page or, offline, stand in for the wallet sheet; the payer presses Pay (or Fail) there;
 * the sandbox notifies the console (Stripe's signed webhook) or sends the payer back (PayPal's
 * return, which the console captures); the console's drawer sees the order paid by its polling.
 * Screenshots go to var/screenshots/.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserSession, logInPastNotice, readLocale, shot } from './browser';

const baseURL = inject('internationalBaseURL');
const sandboxURL = inject('paymentSandboxURL');
const en = readLocale('recharge/locales', 'en-US').recharge;

const PAYPAL = 20;
const GOOGLE_PAY = 30; // Stripe
const CARD = 40; // the card payment-request button (Stripe)
/** A price as the international edition writes it: dollars and two decimals. */
const DOLLARS = /^\$\d+\.\d{2}$/;

const session = browserSession();
let page: Page;
let context: BrowserContext;
beforeEach(() => {
  page = session.page;
  context = session.context;
});

async function openRecharge(deviceName: string): Promise<void> {
  await page.goto(`${baseURL}/device/list`);
  const row = page.locator(`[data-testid="device-row"][data-device-name="${deviceName}"]`);
  await row.locator('a[href*="/consumer/recharge?deviceIds="]').click();
  await page.getByTestId('level-cards').waitFor();
}

/** Checks the level cards of the international edition and opens the paying drawer of "Basic". */
async function chooseBasic(screenshot?: string): Promise<void> {
  const cards = page.getByTestId('level-card');
  await expect.poll(() => cards.count()).toBe(3);
  // the voice count is a domestic field; the SMS count shows
  await page.getByTestId('header-sms').waitFor();
  expect(await page.getByTestId('header-voice').count()).toBe(0);
  expect(await page.getByTestId('voice-count').count()).toBe(0);
  // the free level cannot be bought; the others cost dollars and cents
  await expect.poll(() => cards.nth(0).getByTestId('level-button').isDisabled()).toBe(true);
  for (const index of [1, 2]) {
    const amount = await cards.nth(index).locator('.jc-level-amount').innerText();
    expect(amount).toMatch(DOLLARS);
  }
  const basic = cards.nth(1); // the basic level (free, basic, professional), whatever the page's language names it
  expect(await basic.locator('.jc-level-amount').innerText()).toBe('$19.90');
  if (screenshot) await shot(page, screenshot);
  await basic.getByTestId('level-button').click();
  await page.getByTestId('paying-drawer').waitFor();
}

/** Picks a payment method and waits for its order: the button opening the payer's window. */
async function payWith(payType: number, label: string): Promise<Locator> {
  const method = page.getByTestId(`pay-type-${payType}`);
  if (!(await method.isChecked())) await page.locator(`.jc-method-card--${payType}`).click();
  await expect.poll(() => method.isChecked()).toBe(true);
  // every year option is in dollars and cents
  const years = page.getByTestId('year-option').locator('.jc-year-amount');
  await expect.poll(() => years.count()).toBeGreaterThan(0);
  for (const amount of await years.allInnerTexts()) expect(amount).toMatch(DOLLARS);

  const open = page.getByTestId('payment-open');
  await expect.poll(() => open.innerText(), { timeout: 15_000 }).toBe(label);
  expect(await page.getByTestId('payment-total').innerText()).toBe('$19.90');
  return open;
}

/** Clicks the pay button and answers the window it opens: the sandbox's payer page. */
async function openPayerPage(open: Locator, provider: 'stripe' | 'paypal'): Promise<Page> {
  const [popup] = await Promise.all([context.waitForEvent('page'), open.click()]);
  await popup.waitForLoadState();
  expect(popup.url().startsWith(`${sandboxURL}/pay/${provider}/`)).toBe(true);
  // the amount the payer is asked for is the console's total
  expect(await popup.locator('h1').innerText()).toBe('USD 19.90');
  return popup;
}

/** The paying drawer has closed by itself, saying so, and the header shows the new expiry. */
async function expectPaid(before: string): Promise<void> {
  await page.getByTestId('paying-drawer').waitFor({ state: 'detached', timeout: 15_000 });
  await expect.poll(() => page.getByText(en.paying.paid).count()).toBeGreaterThan(0);
  await expect.poll(() => page.getByTestId('header-expiry').innerText()).not.toBe(before);
}

describe('international edition: paying through the payment sandbox', () => {
  it('renews a device by card (the payment-request wallet, Stripe)', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await openRecharge('Cold room A logger');
    const before = await page.getByTestId('header-expiry').innerText();
    await chooseBasic('e2e-intl-drawer');

    const open = await payWith(CARD, en.payment.payWith.card);
    await shot(page, 'e2e-intl-card-paying');
    const popup = await openPayerPage(open, 'stripe');
    await shot(popup, 'e2e-intl-card-payer-page');

    await popup.getByRole('button', { name: 'Pay', exact: true }).click();
    // the sandbox has sent Stripe's signed webhook before answering: the console took it
    await popup.getByRole('heading', { name: 'Paid' }).waitFor();
    expect(await popup.locator('body').innerText()).toContain('The merchant answered 200.');
    await shot(popup, 'e2e-intl-card-payer-done');

    await expectPaid(before);
    await shot(page, 'e2e-intl-card-paid');
  });

  it('renews a device with PayPal, the payer coming back through the console', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await openRecharge('Cold room B logger');
    const before = await page.getByTestId('header-expiry').innerText();
    await chooseBasic();

    const open = await payWith(PAYPAL, en.payment.payWith.paypal);
    await shot(page, 'e2e-intl-paypal-paying');
    const popup = await openPayerPage(open, 'paypal');
    await shot(popup, 'e2e-intl-paypal-payer-page');

    // Pay approves; the sandbox sends the payer to the console's return, which captures the
    // order and sends the payer on to the callback page
    await popup.getByRole('button', { name: 'Pay', exact: true }).click();
    await popup.waitForURL((url) => url.pathname === '/mobilePay/paypal/callback');
    const back = new URL(popup.url());
    expect(back.origin).toBe(baseURL);
    expect(back.searchParams.get('payStatus')).toBe('2');
    expect(back.searchParams.get('orderId')).toMatch(/^\d+$/);
    // The payer is told the order is paid (in the page's language) and may close the window.
    const result = popup.getByTestId('paypal-result');
    await result.waitFor();
    expect(await result.getAttribute('data-outcome')).toBe('paid');
    await popup.getByRole('heading', { name: en.paypal.paid.title }).waitFor();
    await shot(popup, 'e2e-intl-paypal-callback');

    await expectPaid(before);
    await shot(page, 'e2e-intl-paypal-paid');
  });

  it('says a declined card in the payer’s language, keeps the order unpaid, and a retry with a good card pays', async () => {
    const de = readLocale('recharge/locales', 'de-DE').recharge;
    const failures = readLocale('recharge/failuresLocales', 'de-DE').rechargeFailures;
    await logInPastNotice(page, baseURL, 'alice', 'de-DE');
    await openRecharge('Vaccine fridge logger');
    const before = await page.getByTestId('header-expiry').innerText();
    await chooseBasic();
    const open = await payWith(GOOGLE_PAY, de.payment.payWith.googlePay);

    const popup = await openPayerPage(open, 'stripe');
    await popup.getByRole('button', { name: 'Fail', exact: true }).click();
    await popup.getByRole('heading', { name: 'Payment failed' }).waitFor();
    // the console has been told (payment_intent.payment_failed) and acknowledged it
    expect(await popup.locator('body').innerText()).toContain('The merchant answered 200.');

    // The drawer's next look at the order finds it unpaid, and says why instead of waiting
    const notice = page.getByTestId('payment-failure');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.getAttribute('data-reason')).toBe('declined');
    expect(await notice.innerText()).toContain(failures.declined.title);
    expect(await notice.innerText()).toContain(failures.declined.text);
    expect(await page.getByTestId('payment-waiting').count()).toBe(0);
    expect(await page.getByText(de.paying.paid).count()).toBe(0);
    expect(await page.getByTestId('header-expiry').innerText()).toBe(before);
    await shot(page, 'e2e-intl-declined');

    // Trying again: the same payment is payable again, in a fresh window
    await popup.close();
    await notice.getByRole('button', { name: failures.retry }).click();
    expect(await page.getByTestId('payment-failure').count()).toBe(0);
    const again = await openPayerPage(open, 'stripe');
    expect(again.url()).toBe(popup.url());
    await again.getByRole('button', { name: 'Pay', exact: true }).click();
    await again.getByRole('heading', { name: 'Paid' }).waitFor();
    await page.getByTestId('paying-drawer').waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => page.getByText(de.paying.paid).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('header-expiry').innerText()).not.toBe(before);
    await shot(page, 'e2e-intl-declined-retried-paid');
  });

  it('opens one PayPal window for one PayPal order however often “Pay with PayPal” is clicked', async () => {
    await logInPastNotice(page, baseURL, 'acme');
    await openRecharge('Warehouse 1 door logger');
    const before = await page.getByTestId('header-expiry').innerText();
    const orders: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/payment/PayOrder/create')) orders.push(request.url());
    });
    await chooseBasic();
    const open = await payWith(PAYPAL, en.payment.payWith.paypal);
    expect(orders).toHaveLength(1);

    const windows: Page[] = [];
    context.on('page', (opened) => windows.push(opened));
    await open.dblclick();
    await open.click();
    await expect.poll(() => windows.length).toBe(1);
    const [popup] = windows as [Page];
    await popup.waitForLoadState();
    expect(popup.url().startsWith(`${sandboxURL}/pay/paypal/`)).toBe(true);
    expect(await popup.evaluate(() => window.opener)).toBeNull(); // no handle on the console
    await shot(page, 'e2e-intl-paypal-one-window');

    await popup.getByRole('button', { name: 'Pay', exact: true }).click();
    await popup.waitForURL((url) => url.pathname === '/mobilePay/paypal/callback');
    expect(await popup.getByTestId('paypal-result').getAttribute('data-outcome')).toBe('paid');
    await expectPaid(before);
    expect(windows).toHaveLength(1);
    expect(orders).toHaveLength(1);
  });
});
