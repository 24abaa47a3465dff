import { useTranslation } from 'react-i18next';
import { formatCents } from '@/lib/money';
import { formatInstant, NO_VALUE } from '@/lib/units';

/** How the order drawer and its dialogs write money (cents of a currency), instants (to the second) and numbers. */
export function useDeskFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    money: (cents: number | null, currency: string) => (cents === null ? NO_VALUE : formatCents(cents, currency, language)),
    when: (iso: string | null) => (iso ? formatInstant(iso, language, true) : NO_VALUE),
    number: (value: number) => new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value),
  };
}
