/** What My orders, an order's details and its payment again show alike: the state tag, the
 * order's currency, its devices by name. */
import { Classes, Tag, type Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { editionConfig } from '@/lib/config';
import { NO_VALUE } from '@/lib/units';
import { PAY_STATUSES, type OrderDevice, type PayStatus } from '../api/myOrders';
import { PAY_STATUS } from '../api/orders';

const STATUS_INTENT: Readonly<Record<PayStatus, Intent>> = {
  [PAY_STATUS.unpaid]: 'warning',
  [PAY_STATUS.paid]: 'success',
  [PAY_STATUS.partiallyRefunded]: 'primary',
  [PAY_STATUS.refunded]: 'primary',
  [PAY_STATUS.closed]: 'none',
};

export const isPayStatus = (value: number): value is PayStatus => (PAY_STATUSES as readonly number[]).includes(value);

/** An order's currency: its own, else (an older server) the edition's. */
export const currencyOf = (order: { currency?: string | undefined }) => order.currency ?? editionConfig().currency;

/** The devices of an order by name (as named when ordered), those not listed counted. */
export function deviceNames(
  t: (key: string, options?: Record<string, unknown>) => string,
  devices: readonly OrderDevice[],
  count: number,
): string {
  const names = devices.map((d) => d.deviceName ?? t('rechargeOrders.unnamedDevice', { id: d.deviceId }));
  const more = count - devices.length;
  return more > 0 ? `${names.join(', ')} ${t('rechargeOrders.moreDevices', { count: more })}` : names.join(', ');
}

export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.page' });
  if (!isPayStatus(status)) return <span className={Classes.TEXT_MUTED}>{NO_VALUE}</span>;
  return (
    <Tag
      round
      minimal={status !== PAY_STATUS.paid}
      intent={STATUS_INTENT[status]}
      data-testid="order-status"
      data-status={status}
    >
      {t(`orders.filter.${status}`)}
    </Tag>
  );
}
