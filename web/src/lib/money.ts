/**
 * Money as the console's figures show it: integer cents of a currency, exact, in the reader's
 * number format with the currency's short sign ('¥12,345.67', '$0.00'; '0,00 $' in Russian).
 * Prices in the recharge drawers follow the spec's own rules instead (features/recharge/format.ts).
 */
export function formatCents(cents: number, currency: string, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(cents / 100);
}

/** Currencies shown (and charged) in whole units: a discounted CNY price is cut down to a yuan. */
const WHOLE_UNIT_CURRENCIES = new Set(['CNY']);

/** What a customer is charged for `cents` at `percent` (80: 20 % off), as the server computes it
 * (core/shared/money.py charged_cents): to the cent rounded half up, or cut down to a whole unit. */
export function chargedCents(cents: number, percent: number, currency: string): number {
  if (WHOLE_UNIT_CURRENCIES.has(currency.toUpperCase())) return Math.floor((cents * percent) / 10000) * 100;
  return Math.floor((cents * percent + 50) / 100);
}

/**
 * Cents from an amount as typed ('1980', '1980.5', '1980,50'), read digit by digit so no float
 * ever rounds it; null when it is not an amount of at most `maxWholeDigits` units and two decimals.
 */
export function parseCents(text: string, maxWholeDigits = 10): number | null {
  const match = new RegExp(`^(\\d{1,${maxWholeDigits}})(?:[.,](\\d{1,2}))?$`).exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Cents as an amount to type ('4950' → '49.50'): what parseCents reads back. */
export function centsText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
