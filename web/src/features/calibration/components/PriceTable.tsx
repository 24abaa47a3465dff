import { HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { SERVICES, type Price } from '@/lib/api/calibration';
import { useMoney } from './money';
import { useTypeName } from './typeNames';

/** The price list: a row per device type, a column per service. */
export function PriceTable({ prices }: { prices: readonly Price[] }) {
  const { t } = useTranslation('calibration');
  const money = useMoney();
  const typeName = useTypeName();
  const types = [...new Set(prices.map((p) => p.deviceTypeId))];
  if (types.length === 0) return <p>{t('home.noPrices')}</p>;
  return (
    <HTMLTable compact striped className="jc-cal-prices jc-phone-cards" data-testid="calibration-prices">
      <thead>
        <tr>
          <th>{t('field.deviceType')}</th>
          {SERVICES.map((s) => <th key={s}>{t(`service.${s}`)}</th>)}
        </tr>
      </thead>
      <tbody>
        {types.map((type) => (
          <tr key={type}>
            <td data-label={t('field.deviceType')}>{typeName(type)}</td>
            {SERVICES.map((s) => {
              const price = prices.find((p) => p.deviceTypeId === type && p.service === s);
              return <td key={s} data-label={t(`service.${s}`)}>{price ? money(price.price, price.currency) : '—'}</td>;
            })}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
