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

/** An amount as typed: whole units, then at most two decimals after a point or a comma. */
const TYPED_AMOUNT = /^(\d{1,10})(?:[.,](\d{1,2}))?$/;

/**
 * Integer cents of an amount typed in units ('49.50', '49,5', '7'), read from its digits so no
 * float rounding creeps in ('1.13' × 100 is 112.99999999999999); null when it is not such an
 * amount (more than two decimals, signs, letters).
 */
export function parseCents(text: string): number | null {
  const match = TYPED_AMOUNT.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Cents as an amount to type ('4950' → '49.50'): what parseCents reads back. */
export function centsText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
