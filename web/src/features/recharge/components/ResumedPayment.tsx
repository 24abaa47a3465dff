/**
 * The paying drawer's content for an order placed earlier (Pay in My orders): what the order is for,
 * and its payment again as the server keeps it while it lasts (POST /payment/PayOrder/continuePay:
 * the same QR code, client secret or approve page). Nothing is chosen again here: a change of
 * term, method or invoice is a new order, placed from the recharge drawer. Paid, the drawer closes
 * and says so, as after a new order; expired, the server has closed the order and says why (the
 * HTTP client shows its message), and My orders shows it closed.
 */
import { Classes } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { formatInstant } from '@/lib/units';
import { rechargeKeys } from '../api/levels';
import { continuePay, myOrderKeys, type MyOrder } from '../api/myOrders';
import type { OrderStatus } from '../api/orders';
import type { PayType } from '../values';
import { LevelChangeResult } from './LevelChangeResult';
import { deviceNames } from './orderParts';
import { PaymentPanel } from './PaymentPanel';

export interface ResumedPaymentProps {
  order: MyOrder;
  /** False while the drawer closes: nothing is asked for or polled any more. */
  active: boolean;
  onClose: () => void;
}

export function ResumedPayment({ order, active, onClose }: ResumedPaymentProps) {
  const { t, i18n } = useTranslation('recharge');
  const queryClient = useQueryClient();
  const payment = useQuery({
    queryKey: ['payment', 'continue', order.orderId],
    queryFn: () => continuePay(order.orderId),
    enabled: active,
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  // Refused (expired, paid or closed meanwhile): the list shows the order as it now is.
  useEffect(() => {
    if (payment.isError) void queryClient.invalidateQueries({ queryKey: myOrderKeys.all });
  }, [payment.isError, queryClient]);

  const paid = (status: OrderStatus) => {
    const lines = [t('recharge.paying.paid')];
    if (status.applyFlag) lines.push(t('recharge.paying.invoiceLine'));
    notify.success(lines.join(' '));
    void queryClient.invalidateQueries({ queryKey: ['devices'] });
    void queryClient.invalidateQueries({ queryKey: ['expiry', 'devices'] });
    void queryClient.invalidateQueries({ queryKey: rechargeKeys.all });
    onClose();
  };

  const error = payment.error instanceof ApiError ? payment.error.message : payment.isError ? t('recharge.paying.requestFailed') : null;
  const placed = payment.data;
  return (
    <div className={`${Classes.DRAWER_BODY} jc-paying-body`} data-testid="resumed-payment">
      <div className="jc-paying-options">
        <section className="jc-paying-section">
          <h4 className="jc-paying-heading">{order.orderDescription}</h4>
          <p data-testid="resumed-devices">
            {order.devices?.length ? deviceNames(t, order.devices, order.deviceCount) : t('recharge.paying.devices', { count: order.deviceCount })}
          </p>
          <p className={Classes.TEXT_MUTED}>
            <span className="jc-mono">{order.orderCode}</span>
            {placed?.expireTime && (
              <span data-testid="resumed-expires">
                {' · '}
                {t('rechargeOrders.expiresAt', { time: formatInstant(placed.expireTime, i18n.language, false) })}
              </span>
            )}
          </p>
        </section>
        <LevelChangeResult changes={placed?.levelChanges} devices={order.devices ?? []} loading={payment.isPending && active} />
      </div>
      <aside className="jc-paying-pay">
        <PaymentPanel
          order={active ? (placed ?? null) : null}
          payType={(placed?.payType ?? order.payType) as PayType}
          totalFee={placed?.totalFee ?? order.orderFee}
          loading={payment.isPending && active}
          error={error}
          onPaid={paid}
        />
      </aside>
    </div>
  );
}
