/**
 * The recharge statistics (/operation/rechargeStatistics, issue 19) in a real browser against
 * `coldchain serve` with demo data and the development payment gateway: alice pays an order (her
 * phone opens the gateway's signed pay link); the operator opens the statistics, which read the
 * last 30 days by day, and finds the payment in today's period and in the total; by month it is in
 * the last month. The suites share one database: what was paid today before alice's order is read
 * first, through the API. In English on a desktop and in Russian on a 375 px phone; screenshots go
 * to var/screenshots/.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { asUser, browserSession, logInPastNotice, shot } from './browser';
import { pay, placeOrder } from './orders';

const baseURL = inject('baseURL');
const ZONE = 'Asia/Shanghai';
// The operator keeps no time zone of their own: the console sends the browser's. With less motion
// asked for, the chart is drawn at once (no bars caught growing in a screenshot).
const session = browserSession({ timezoneId: ZONE, reducedMotion: 'reduce' });

type Figures = { paid: number; orders: number; refunded: number; refunds: number; net: number };
type Statistics = { currency: string; total: Figures; periods: (Figures & { start: string; end: string })[] };

const todayIn = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

/** What was paid today so far, as the operator's statistics say. */
function paidToday(language: string): Promise<number> {
  const today = todayIn(ZONE);
  return asUser(baseURL, 'operator', language, async (headers) => {
    const reply = await fetch(`${baseURL}/api/payment/PayOrder/rechargeStatistics`, {
      method: 'POST', headers: { ...headers, 'X-Time-Zone': ZONE },
      body: JSON.stringify({ startDate: today, endDate: today, granularity: 'day' }),
    });
    const json = (await reply.json()) as { code: number; data: Statistics };
    expect(json.code, JSON.stringify(json)).toBe(0);
    return json.data.total.paid;
  });
}

/** The statistics the page is answered, for `granularity`. */
function answered(page: Page, granularity: string): Promise<Response> {
  return page.waitForResponse((reply) => reply.url().endsWith('/PayOrder/rechargeStatistics')
    && (reply.request().postDataJSON() as { granularity?: string }).granularity === granularity);
}

/** Cents as the page writes them: the browser's own Intl, as lib/money.ts formats. */
function money(page: Page, cents: number, currency: string, language: string): Promise<string> {
  return page.evaluate(([c, cur, lang]) => new Intl.NumberFormat(lang as string, { style: 'currency', currency: cur as string,
    currencyDisplay: 'narrowSymbol' }).format((c as number) / 100), [cents, currency, language] as const);
}

const noOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('recharge statistics', () => {
  for (const [language, width] of [['en-US', 1280], ['ru-RU', 375]] as const) {
    it(`shows alice's payment in today's period and the total, then by month (${language}, ${width} px)`, async () => {
      const { page } = session;
      const before = await paidToday(language);
      const placed = await placeOrder(baseURL, language);
      await pay(baseURL, placed);
      await page.setViewportSize({ width, height: 900 });
      await logInPastNotice(page, baseURL, 'operator', language);

      const byDay = answered(page, 'day');
      await page.goto(`${baseURL}/operation/rechargeStatistics`);
      const reply = await byDay;
      expect(reply.request().headers()['x-time-zone']).toBe(ZONE);
      const stats = ((await reply.json()) as { data: Statistics }).data;
      const today = todayIn(ZONE);
      const last = stats.periods.at(-1)!;
      expect(last.start.slice(0, 10)).toBe(today);
      expect(last.paid).toBe(before + placed.totalFee);
      expect(stats.total.paid).toBeGreaterThanOrEqual(last.paid);

      const todayPaid = page.locator(`[data-testid="rs-periods-row"][data-start="${today}"] [data-column="paid"]`);
      await expect.poll(() => todayPaid.textContent()).toBe(await money(page, last.paid, stats.currency, language));
      expect(await page.getByTestId('rs-paid').textContent()).toBe(await money(page, stats.total.paid, stats.currency, language));
      await page.locator('.jc-rs-chart canvas').first().waitFor();
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `recharge-statistics-${language}-${width}`);

      const byMonth = answered(page, 'month');
      await page.getByTestId('rs-granularity-month').click();
      const months = ((await (await byMonth).json()) as { data: Statistics }).data;
      const thisMonth = months.periods.at(-1)!;
      expect(thisMonth.paid).toBeGreaterThanOrEqual(last.paid);
      expect(months.total.paid).toBe(stats.total.paid); // the same days, grouped otherwise
      const monthRow = page.locator(`[data-testid="rs-periods-row"][data-start="${thisMonth.start.slice(0, 10)}"] [data-column="paid"]`);
      await expect.poll(() => monthRow.textContent()).toBe(await money(page, thisMonth.paid, months.currency, language));
      expect(await page.getByTestId('rs-granularity-month').getAttribute('aria-pressed')).toBe('true');
      await page.getByTestId('rs-body').and(page.locator(':not(.jc-stale)')).waitFor();
      await page.locator('.jc-rs-chart-panel').scrollIntoViewIfNeeded();
      expect(await noOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `recharge-statistics-month-${language}-${width}`);
      await page.getByTestId('rs-paytypes').scrollIntoViewIfNeeded();
      await shot(page, `recharge-statistics-tables-${language}-${width}`);
    });
  }
});
