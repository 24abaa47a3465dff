/**
 * The recharge page's orders: the caller's orders, newest first, filtered by payment state and
 * paged. Amounts as the edition writes them (whole yuan at home, two decimals abroad). A payment
 * made from the page refreshes the list (myOrderKeys sits under rechargeKeys.all).
 */
import { Button, Classes, HTMLTable, NonIdealState, SegmentedControl, Spinner, Tag, type Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '@/components/Pager';
import { editionConfig } from '@/lib/config';
import { formatInstant, NO_VALUE } from '@/lib/units';
import { PAY_STATUSES, useMyOrders, type MyOrder, type PayStatus } from '../api/myOrders';
import { PAY_STATUS } from '../api/orders';
import { money } from '../format';
import { PAY_TYPES } from '../values';

export const ORDER_PAGE_SIZE = 10;
/** The filter's values: every state (0), or one. */
export const ORDER_FILTERS: readonly (PayStatus | 0)[] = [0, ...PAY_STATUSES];

const STATUS_INTENT: Readonly<Record<PayStatus, Intent>> = {
  [PAY_STATUS.unpaid]: 'warning',
  [PAY_STATUS.paid]: 'success',
  [PAY_STATUS.refunded]: 'primary',
  [PAY_STATUS.closed]: 'none',
};

const KNOWN_PAY_TYPES = new Set<number>(Object.values(PAY_TYPES));
const isPayStatus = (value: number): value is PayStatus => (PAY_STATUSES as readonly number[]).includes(value);

export function MyOrders() {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.page' });
  const [status, setStatus] = useState<PayStatus | 0>(0);
  const [start, setStart] = useState(1);
  const query = useMyOrders({ start, pageSize: ORDER_PAGE_SIZE, ...(status ? { payStatus: status } : {}) });
  const page = query.data;

  return (
    <section className="jc-rpage-panel" data-testid="my-orders">
      <div className="jc-rpage-toolbar">
        <SegmentedControl
          aria-label={t('orders.status')}
          value={String(status)}
          onValueChange={(value) => {
            const next = Number(value);
            setStatus(isPayStatus(next) ? next : 0);
            setStart(1);
          }}
          options={ORDER_FILTERS.map((value) => ({ value: String(value), label: t(`orders.filter.${value}`) }))}
          data-testid="order-status-filter"
        />
        <span className="jc-rpage-spacer" />
        <Button
          icon="refresh"
          variant="minimal"
          text={t('refresh')}
          loading={query.isFetching && !query.isPending}
          onClick={() => void query.refetch()}
        />
      </div>
      <div className="jc-rpage-table-wrap" aria-busy={query.isFetching}>
        {page === undefined ? (
          query.isError ? (
            <div data-testid="my-orders-failed">
              <NonIdealState
                icon="error"
                title={t('orders.loadFailed')}
                action={<Button icon="refresh" text={t('retry')} onClick={() => void query.refetch()} />}
                className="jc-rpage-state"
              />
            </div>
          ) : (
            <Spinner size={32} className="jc-rpage-state" />
          )
        ) : page.data.length === 0 ? (
          <div data-testid="my-orders-empty">
            <NonIdealState
              icon="th-list"
              title={status ? t('orders.emptyFiltered') : t('orders.empty')}
              description={status ? undefined : t('orders.emptyHint')}
              className="jc-rpage-state"
            />
          </div>
        ) : (
          <OrderTable orders={page.data} stale={query.isPlaceholderData} />
        )}
      </div>
      {page !== undefined && page.totalCount > 0 && (
        <div className="jc-rpage-footer jc-rpage-footer--end">
          <Pager page={start} pageSize={ORDER_PAGE_SIZE} total={page.totalCount} disabled={query.isFetching} onChange={setStart} />
        </div>
      )}
    </section>
  );
}

function OrderTable({ orders, stale }: { orders: readonly MyOrder[]; stale: boolean }) {
  const { t, i18n } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const { edition } = editionConfig();
  return (
    <HTMLTable compact className={`jc-rpage-table${stale ? ' jc-stale' : ''}`} data-testid="order-table">
      <thead>
        <tr>
          <th scope="col">{t('page.orders.column.code')}</th>
          <th scope="col">{t('page.orders.column.description')}</th>
          <th scope="col" className="jc-num">{t('page.orders.column.amount')}</th>
          <th scope="col">{t('page.orders.column.method')}</th>
          <th scope="col">{t('page.orders.column.status')}</th>
          <th scope="col">{t('page.orders.column.created')}</th>
          <th scope="col">{t('page.orders.column.paid')}</th>
          <th scope="col">{t('page.orders.column.invoice')}</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr
            key={order.orderId}
            data-testid="order-row"
            data-order-code={order.orderCode}
            data-status={order.payStatus}
          >
            <td className="jc-mono" data-testid="order-code">
              {order.orderCode}
            </td>
            <td>
              <span className="jc-rpage-order-title" data-testid="order-description">
                {order.orderDescription || NO_VALUE}
              </span>
              <span className={`jc-rpage-order-devices ${Classes.TEXT_MUTED}`}>
                {t('paying.devices', { count: order.deviceCount })}
              </span>
            </td>
            <td className="jc-num jc-rpage-amount" data-testid="order-amount">
              {money(order.orderFee, edition)}
            </td>
            <td data-testid="order-method">
              {KNOWN_PAY_TYPES.has(order.payType) ? t(`paying.methods.${order.payType}`) : NO_VALUE}
            </td>
            <td>
              <StatusTag status={order.payStatus} />
            </td>
            <td className="jc-rpage-time">{formatInstant(order.gmtCreate, i18n.language, false)}</td>
            <td className="jc-rpage-time" data-testid="order-paid-at">
              {order.payTime ? formatInstant(order.payTime, i18n.language, false) : <span className={Classes.TEXT_MUTED}>{NO_VALUE}</span>}
            </td>
            <td data-testid="order-invoice">
              {order.applyFlag ? (
                <Tag minimal round intent={order.invoiceStatus ? 'success' : 'primary'} icon="document">
                  {order.invoiceStatus ? t('page.orders.invoice.issued') : t('page.orders.invoice.requested')}
                </Tag>
              ) : (
                <span className={Classes.TEXT_MUTED}>{t('page.orders.invoice.none')}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

function StatusTag({ status }: { status: number }) {
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
