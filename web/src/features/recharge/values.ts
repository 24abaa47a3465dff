/**
 * The display rules of the recharge drawers (spec seed 000 sections 4, 5 and 9). Prices, discount
 * badges and item titles come computed from the server (src/core/pricing/rules.py); what is left
 * here only writes them. Money is integer cents.
 */

export type Edition = 'domestic' | 'international';

export const LOW_STOCK = 50;
export const LIFELONG_MONTHS = 1200;
export const LIFELONG_FROM_YEAR = 2099;
export const NOT_SHOWN = '--';

/**
 * How amounts of a currency (ISO 4217) are shown: yuan whole, dollars to the cent (spec seed 000
 * section 9). The server prices in what a currency shows (src/core/shared/money.py), so an amount
 * shown is the amount charged. A currency without a rule here is shown to the cent after its code.
 */
export const CURRENCIES: Readonly<Record<string, { sign: string; wholeUnits: boolean }>> = {
  CNY: { sign: '¥', wholeUnits: true },
  USD: { sign: '$', wholeUnits: false },
};

/** The currency of an edition's prices (GET /api/base/config says the same). */
export function editionCurrency(edition: Edition): string {
  return edition === 'domestic' ? 'CNY' : 'USD';
}

/**
 * An amount in cents of `currency` as the console shows it: whole yuan (truncated), other
 * currencies with two decimals; '--' for 0 or anything that is not a finite number.
 */
export function formatAmountIn(cents: unknown, currency: string): string {
  if (typeof cents !== 'number' || !Number.isFinite(cents) || Math.trunc(cents) === 0) return NOT_SHOWN;
  const whole = Math.trunc(cents);
  const units = Math.floor(Math.abs(whole) / 100);
  const rest = Math.abs(whole) % 100;
  if (CURRENCIES[currency.toUpperCase()]?.wholeUnits) return `${whole < 0 && units ? '-' : ''}${units}`;
  return `${whole < 0 ? '-' : ''}${units}.${String(rest).padStart(2, '0')}`;
}

/** An amount of the edition's currency as the console shows it (see formatAmountIn). */
export function formatAmount(cents: unknown, edition: Edition): string {
  return formatAmountIn(cents, editionCurrency(edition));
}

/** The sign shown before an amount of `currency` ('¥', '$'), else its code and a space ('EUR '). */
export function currencySignOf(currency: string): string {
  const code = currency.toUpperCase();
  return CURRENCIES[code]?.sign ?? `${code} `;
}

/** The currency sign shown before an amount of the edition's currency. */
export function currencySign(edition: Edition): string {
  return currencySignOf(editionCurrency(edition));
}

/** Years and months of a term (under 12 months: months only); null for a lifelong term. */
export function durationParts(months: number): { years: number; months: number } | null {
  if (months >= LIFELONG_MONTHS) return null;
  if (months < 12) return { years: 0, months };
  return { years: Math.floor(months / 12), months: months % 12 };
}

/** An expiry in 2099 or later, or a term of 1200 months or more, reads "lifelong". */
export function isLifelong({ expiresAt, months }: { expiresAt?: string | null; months?: number | null }): boolean {
  const year = expiresAt ? Number(expiresAt.slice(0, 4)) : NaN;
  return (Number.isFinite(year) && year >= LIFELONG_FROM_YEAR) || (months != null && months >= LIFELONG_MONTHS);
}

/** SMS and voice counts at or below 50 show red, above green. */
export function stockIntent(count: number): 'danger' | 'success' {
  return count <= LOW_STOCK ? 'danger' : 'success';
}

/** Pay types (api-contract section 2). */
export const PAY_TYPES = { wechat: 1, alipay: 2, paypal: 20, googlePay: 30, paymentRequest: 40 } as const;
export type PayType = (typeof PAY_TYPES)[keyof typeof PAY_TYPES];
/** The pay type of an order a redeemed recharge card placed (fee 0, never chosen in a drawer). */
export const RECHARGE_CARD_PAY_TYPE = 50;
/** Every pay type an order may show. */
export const SHOWN_PAY_TYPES: readonly number[] = [...Object.values(PAY_TYPES), RECHARGE_CARD_PAY_TYPE];

/** Pay types each edition offers in the paying drawer (the server's /base/config says the same). */
export function payTypesOf(edition: Edition): PayType[] {
  return edition === 'domestic'
    ? [PAY_TYPES.wechat, PAY_TYPES.alipay]
    : [PAY_TYPES.paypal, PAY_TYPES.googlePay, PAY_TYPES.paymentRequest];
}

/**
 * The edition's pay types the server offers now (`payTypes` of GET /api/base/config): a provider
 * missing a credential is switched off there and refuses its orders (1115), so it is not offered
 * here either. Empty when none is on: the drawers then say so and place no order.
 */
export function offeredPayTypes(edition: Edition, offered: readonly number[]): PayType[] {
  return payTypesOf(edition).filter((payType) => offered.includes(payType));
}

/** Domestic country code fixed 86; international default 1 (locked when the device has one). */
export function countryCodeRule(edition: Edition, deviceCode?: string | null): { code: string; locked: boolean } {
  if (edition === 'domestic') return { code: '86', locked: true };
  return deviceCode ? { code: deviceCode, locked: true } : { code: '1', locked: false };
}
