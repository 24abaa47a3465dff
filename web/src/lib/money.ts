/**
 * Money as the console's figures show it: integer cents of a currency, exact, in the reader's
 * number format with the currency's short sign ('¥12,345.67', '$0.00'; '0,00 $' in Russian).
 * Prices in the recharge drawers follow the spec's own rules instead (features/recharge/format.ts).
 */
export function formatCents(cents: number, currency: string, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(cents / 100);
}
