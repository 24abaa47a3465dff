/**
 * One order's details, from My orders: its state, method, amount in its own currency (and what was
 * refunded of it), dates (created, paid, pay-by while unpaid, closed and why, refunded) and a line
 * per device: the device as named when ordered, the level and term bought (or the SMS and voice
 * counts) and what it pays.
 */
import { Button, Classes, Drawer, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { DocumentOpenIcon, ErrorIcon, RefreshIcon } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatInstant, NO_VALUE } from '@/lib/units';
import { useOrderDetail, type OrderDetail } from '../api/myOrders';
import { PAY_STATUS } from '../api/orders';
import { durationText } from '../format';
import { orderMoney, refundedMoney } from '../orderMoney';
import { SHOWN_PAY_TYPES } from '../values';
import { currencyOf, StatusTag } from './orderParts';
import './orderDetails.css';

export const ORDER_DETAILS_WIDTH = 640;

export interface OrderDetailsProps {
  isOpen: boolean;
  /** The order shown; kept while the drawer slides away. */
  orderId: number | null;
  onClose: () => void;
}

export function OrderDetails({ isOpen, orderId, onClose }: OrderDetailsProps) {
  const { t } = useTranslation('recharge');
  const detail = useOrderDetail(orderId);
  const order = detail.data?.orderId === orderId ? detail.data : undefined;
  return (
    <Drawer
      isOpen={isOpen}
      onClose={onClose}
      size={ORDER_DETAILS_WIDTH}
      icon={<DocumentOpenIcon />}
      title={order ? t('rechargeOrders.detail.title', { code: order.orderCode }) : t('rechargeOrders.details')}
    >
      <div className={Classes.DRAWER_BODY} data-testid="order-detail">
        {order ? (
          <OrderBody order={order} />
        ) : detail.isError ? (
          <NonIdealState
            icon={<ErrorIcon />}
            title={t('rechargeOrders.detail.loadFailed')}
            action={<Button icon={<RefreshIcon />} text={t('recharge.page.retry')} onClick={() => void detail.refetch()} />}
          />
        ) : (
          <Spinner size={32} />
        )}
      </div>
    </Drawer>
  );
}

function OrderBody({ order }: { order: OrderDetail }) {
  const { t, i18n } = useTranslation('recharge');
  const when = (iso: string | null | undefined) => (iso ? formatInstant(iso, i18n.language, false) : null);
  const currency = currencyOf(order);
  const rows: [string, ReactNode, string][] = [
    [t('rechargeOrders.detail.status'), <StatusTag key="status" status={order.payStatus} />, 'status'],
    [t('rechargeOrders.detail.method'), SHOWN_PAY_TYPES.includes(order.payType) ? t(`recharge.paying.methods.${order.payType}`) : NO_VALUE, 'method'],
    [t('rechargeOrders.detail.amount'), orderMoney(order.orderFee, currency), 'amount'],
  ];
  if (order.payFee != null) rows.push([t('rechargeOrders.detail.paid'), orderMoney(order.payFee, currency), 'paid']);
  if (order.refundFee > 0) rows.push([t('rechargeOrders.detail.refundedAmount'), refundedMoney(order.refundFee, currency), 'refunded']);
  rows.push([t('rechargeOrders.detail.created'), when(order.gmtCreate), 'created']);
  if (order.payTime) rows.push([t('rechargeOrders.detail.paidAt'), when(order.payTime), 'paid-at']);
  if (order.payStatus === PAY_STATUS.unpaid && order.expireTime) rows.push([t('rechargeOrders.detail.expires'), when(order.expireTime), 'expires']);
  if (order.closeTime) rows.push([t('rechargeOrders.detail.closedAt'), when(order.closeTime), 'closed-at']);
  if (order.closeReason) rows.push([t('rechargeOrders.detail.reason'), t(`rechargeOrders.closeReason.${order.closeReason}`, { defaultValue: order.closeReason }), 'reason']);
  if (order.refundTime) rows.push([t('rechargeOrders.detail.refundedAt'), when(order.refundTime), 'refunded-at']);
  const service = order.lines.some((line) => line.levelName !== null);

  return (
    <div className="jc-order-detail">
      <p className={Classes.TEXT_MUTED}>
        <span className="jc-mono">{order.orderCode}</span> · {order.orderDescription}
      </p>
      <HTMLTable compact className="jc-order-detail-facts">
        <tbody>
          {rows.map(([label, value, id]) => (
            <tr key={id}>
              <th scope="row">{label}</th>
              <td data-testid={`order-detail-${id}`}>{value ?? NO_VALUE}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <h4>{t('rechargeOrders.detail.lines')}</h4>
      <HTMLTable compact striped className="jc-recharge-table" data-testid="order-lines">
        <thead>
          <tr>
            <th scope="col">{t('rechargeOrders.detail.device')}</th>
            {service ? (
              <>
                <th scope="col">{t('rechargeOrders.detail.level')}</th>
                <th scope="col">{t('rechargeOrders.detail.term')}</th>
              </>
            ) : (
              <>
                <th scope="col" className="jc-num">{t('rechargeOrders.detail.sms')}</th>
                <th scope="col" className="jc-num">{t('rechargeOrders.detail.voice')}</th>
              </>
            )}
            <th scope="col" className="jc-num">{t('rechargeOrders.detail.lineAmount')}</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.deviceId} data-testid="order-line">
              <td>{line.deviceName ?? t('rechargeOrders.unnamedDevice', { id: line.deviceId })}</td>
              {service ? (
                <>
                  <td>{line.levelName ?? NO_VALUE}</td>
                  <td>
                    {durationText((key, options) => t(`recharge.${key}`, options), line.timeLength)}
                    {line.presentationMonth > 0 && ` ${t('recharge.levels.bonus', { count: line.presentationMonth })}`}
                  </td>
                </>
              ) : (
                <>
                  <td className="jc-num">{line.smsCount}</td>
                  <td className="jc-num">{line.voiceCount}</td>
                </>
              )}
              <td className="jc-num" data-testid="order-line-amount">
                {orderMoney(line.fee, currency)}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
