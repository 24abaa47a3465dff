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
  const basic = page.locator('[data-testid="level-card"][data-level="Basic"]');
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

  it('keeps the order unpaid when Google Pay is declined, and the payer can try again', async () => {
    await logInPastNotice(page, baseURL, 'alice');
    await openRecharge('Vaccine fridge logger');
    const before = await page.getByTestId('header-expiry').innerText();
    await chooseBasic();
    const open = await payWith(GOOGLE_PAY, en.payment.payWith.googlePay);

    const popup = await openPayerPage(open, 'stripe');
    await popup.getByRole('button', { name: 'Fail', exact: true }).click();
    await popup.getByRole('heading', { name: 'Payment failed' }).waitFor();
    // the console has been told (payment_intent.payment_failed) and acknowledged it
    expect(await popup.locator('body').innerText()).toContain('The merchant answered 200.');
    await shot(popup, 'e2e-intl-fail-payer-page');
    await popup.close();

    // The drawer's next look at the order, asked after the decline, finds it unpaid.
    const poll = await page.waitForRequest((request) => request.url().includes('/api/payment/PayOrder/get'),
      { timeout: 10_000 });
    const answer = (await (await poll.response())?.json()) as { data: { payStatus: number } };
    expect(answer.data.payStatus).toBe(1);
    // ... and the drawer, having seen it, still offers to pay: no success
    await page.getByTestId('payment-waiting').waitFor();
    expect(await page.getByTestId('paying-drawer').count()).toBe(1);
    expect(await page.getByTestId('payment-open').isVisible()).toBe(true);
    expect(await page.getByText(en.paying.paid).count()).toBe(0);
    expect(await page.getByTestId('header-expiry').innerText()).toBe(before);
    await shot(page, 'e2e-intl-fail-unpaid');

    // Trying again: the same payment is payable again after a decline
    const again = await openPayerPage(open, 'stripe');
    await again.getByRole('button', { name: 'Pay', exact: true }).click();
    await again.getByRole('heading', { name: 'Paid' }).waitFor();
    await expectPaid(before);
    await shot(page, 'e2e-intl-fail-retried-paid');
  });
});
