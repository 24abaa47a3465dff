import { formatCents } from '@/lib/money';

/** An amount as the console shows its currency: yuan whole (the console charges whole yuan), other currencies to the cent. */
export function voucherMoney(cents: number, currency: string, language: string): string {
  if (currency !== 'CNY') return formatCents(cents, currency, language);
  return new Intl.NumberFormat(language, { style: 'currency', currency, currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0,
    minimumFractionDigits: 0 }).format(Math.trunc(cents / 100));
}
