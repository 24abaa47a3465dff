import { useTranslation } from 'react-i18next';
import { usePrices } from '@/lib/api/calibration';

/** A device type's name as the price list gives it, else its number (a type no longer published). */
export function useTypeName(): (typeId: number | null) => string {
  const { t } = useTranslation('calibration');
  const prices = usePrices();
  return (typeId) => {
    if (typeId === null) return '';
    return prices.data?.find((p) => p.deviceTypeId === typeId && p.typeName)?.typeName ?? t('field.type', { id: typeId });
  };
}
