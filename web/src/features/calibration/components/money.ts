import { useTranslation } from 'react-i18next';
import { formatCents } from '@/lib/money';

/** Cents in the currency, in the reader's number format. */
export function useMoney(): (cents: number, currency: string) => string {
  const { i18n } = useTranslation();
  return (cents, currency) => formatCents(cents, currency, i18n.language);
}
