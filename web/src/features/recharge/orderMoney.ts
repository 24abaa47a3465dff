/**
 * An order's amount in the order's own currency, whatever the edition shows today: CNY as whole
 * yuan ('¥159'), USD with two decimals ('$159.20'), another ISO 4217 code before the amount with two
 * decimals ('EUR 159.20'); '--' when there is none. Stands in for format.ts `formatMoney(cents,
 * currency)` (the currency work of issue 14), which it should give way to once that lands.
 */
import { formatAmount, NOT_SHOWN } from './values';

const SIGNS: Readonly<Record<string, string>> = { CNY: '¥', USD: '$' };

export function orderMoney(cents: unknown, currency: string): string {
  const code = currency.toUpperCase();
  const amount = formatAmount(cents, code === 'CNY' ? 'domestic' : 'international');
  if (amount === NOT_SHOWN) return NOT_SHOWN;
  const sign = SIGNS[code];
  return sign ? `${sign}${amount}` : `${code} ${amount}`;
}
