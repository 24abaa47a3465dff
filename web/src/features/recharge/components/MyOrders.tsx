/**
 * The recharge page's orders: the caller's orders, newest first, filtered by payment state and
 * paged. Each row names its devices (as they were named when ordered) and writes its amount in the
 * order's own currency, with what was refunded of it if any. An unpaid order offers Pay (the paying drawer, showing that order's code
 * again), Cancel (after a confirmation; its code stops working at the provider) and Details; every
 * other order offers Details. Orders superseded by a change in the paying drawer are not listed
 * (the server leaves them out). A payment made from the page refreshes the list (myOrderKeys sits
 * under rechargeKeys.all).
 */
import { Alert, Button, ButtonGroup, Classes, HTMLTable, NonIdealState, SegmentedControl, Spinner, Tag } from '@blueprintjs/core';
import {
  CreditCardIcon, CrossIcon, DocumentIcon, DocumentOpenIcon, ErrorIcon, RefreshIcon, ThListIcon,
  TrashIcon,
} from '@blueprintjs/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '@/components/Pager';
import { notify } from '@/lib/notify';
import { formatInstant, NO_VALUE } from '@/lib/units';
import { cancelOrder, myOrderKeys, PAY_STATUSES, useMyOrders, type MyOrder, type PayStatus } from '../api/myOrders';
import { PAY_STATUS } from '../api/orders';
import { orderMoney, refundedMoney } from '../orderMoney';
import { PayingDrawer } from '../PayingDrawer';
import { SHOWN_PAY_TYPES } from '../values';
import { InvoiceRequestDialog } from './InvoiceRequestDialog';
import { OrderDetails } from './OrderDetails';
import { currencyOf, deviceNames, isPayStatus, StatusTag } from './orderParts';

export const ORDER_PAGE_SIZE = 10;
/** The filter's values: every state (0), or one. */
export const ORDER_FILTERS: readonly (PayStatus | 0)[] = [0, ...PAY_STATUSES];

const KNOWN_PAY_TYPES = new Set<number>(SHOWN_PAY_TYPES);

export function MyOrders() {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.page' });
  const [status, setStatus] = useState<PayStatus | 0>(0);
  const [start, setStart] = useState(1);
  const query = useMyOrders({ start, pageSize: ORDER_PAGE_SIZE, ...(status ? { payStatus: status } : {}) });
  const page = query.data;
  const [requesting, setRequesting] = useState(false);
  const { t: ti } = useTranslation('recharge', { keyPrefix: 'rechargeInvoices.request' });

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
        <Button icon={<DocumentIcon />} text={ti('button')} onClick={() => setRequesting(true)} data-testid="request-invoice" />
        <Button
          icon={<RefreshIcon />}
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
                icon={<ErrorIcon />}
                title={t('orders.loadFailed')}
                action={<Button icon={<RefreshIcon />} text={t('retry')} onClick={() => void query.refetch()} />}
                className="jc-rpage-state"
              />
            </div>
          ) : (
            <Spinner size={32} className="jc-rpage-state" />
          )
        ) : page.data.length === 0 ? (
          <div data-testid="my-orders-empty">
            <NonIdealState
              icon={<ThListIcon />}
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
      <InvoiceRequestDialog isOpen={requesting} onClose={() => setRequesting(false)} />
    </section>
  );
}

function OrderTable({ orders, stale }: { orders: readonly MyOrder[]; stale: boolean }) {
  const { t, i18n } = useTranslation('recharge', { keyPrefix: 'recharge' });
  const { t: tr } = useTranslation('recharge');
  const queryClient = useQueryClient();
  const [paying, setPaying] = useState<{ isOpen: boolean; order: MyOrder | null }>({ isOpen: false, order: null });
  const [cancelling, setCancelling] = useState<MyOrder | null>(null);
  const [details, setDetails] = useState<{ isOpen: boolean; orderId: number | null }>({ isOpen: false, orderId: null });
  const cancel = useMutation({
    mutationFn: cancelOrder,
    onSuccess: () => notify.success(tr('rechargeOrders.cancelled')),
    // The HTTP client has shown a refusal; the list shows the order as it now is either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: myOrderKeys.all }),
  });
  const confirmCancel = async () => {
    if (!cancelling) return;
    try {
      await cancel.mutateAsync(cancelling.orderId);
    } catch {
      // shown already
    }
    setCancelling(null);
  };

  return (
    <>
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
            <th scope="col">{tr('rechargeOrders.column.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => {
            const unpaid = order.payStatus === PAY_STATUS.unpaid;
            return (
              <tr key={order.orderId} data-testid="order-row" data-order-code={order.orderCode} data-status={order.payStatus}>
                <td className="jc-mono" data-testid="order-code">
                  {order.orderCode}
                </td>
                <td>
                  <span className="jc-rpage-order-title" data-testid="order-description">
                    {order.orderDescription || NO_VALUE}
                  </span>
                  <span className={`jc-rpage-order-devices ${Classes.TEXT_MUTED}`} data-testid="order-devices">
                    {order.devices?.length ? deviceNames(tr, order.devices, order.deviceCount) : t('paying.devices', { count: order.deviceCount })}
                  </span>
                </td>
                <td className="jc-num jc-rpage-amount" data-testid="order-amount">
                  {orderMoney(order.orderFee, currencyOf(order))}
                  {order.refundFee > 0 && (
                    <span className={`jc-rpage-order-devices ${Classes.TEXT_MUTED}`} data-testid="order-refunded">
                      {tr('rechargeOrders.refunded', { amount: refundedMoney(order.refundFee, currencyOf(order)) })}
                    </span>
                  )}
                </td>
                <td data-testid="order-method">
                  {KNOWN_PAY_TYPES.has(order.payType) ? t(`paying.methods.${order.payType}`) : NO_VALUE}
                </td>
                <td>
                  <StatusTag status={order.payStatus} />
                  {unpaid && order.expireTime && (
                    <span className={`jc-rpage-order-devices ${Classes.TEXT_MUTED}`} data-testid="order-expires">
                      {tr('rechargeOrders.expiresAt', { time: formatInstant(order.expireTime, i18n.language, false) })}
                    </span>
                  )}
                </td>
                <td className="jc-rpage-time">{formatInstant(order.gmtCreate, i18n.language, false)}</td>
                <td className="jc-rpage-time" data-testid="order-paid-at">
                  {order.payTime ? formatInstant(order.payTime, i18n.language, false) : <span className={Classes.TEXT_MUTED}>{NO_VALUE}</span>}
                </td>
                <td data-testid="order-invoice">
                  {order.applyFlag ? (
                    <Tag minimal round intent={order.invoiceStatus ? 'success' : 'primary'} icon={<DocumentIcon />}>
                      {order.invoiceStatus ? t('page.orders.invoice.issued') : t('page.orders.invoice.requested')}
                    </Tag>
                  ) : (
                    <span className={Classes.TEXT_MUTED}>{t('page.orders.invoice.none')}</span>
                  )}
                </td>
                <td>
                  <ButtonGroup variant="minimal" size="small">
                    {unpaid && (
                      <Button
                        intent="primary"
                        icon={<CreditCardIcon />}
                        text={tr('rechargeOrders.pay')}
                        onClick={() => setPaying({ isOpen: true, order })}
                        data-testid="order-pay"
                      />
                    )}
                    {unpaid && (
                      <Button
                        intent="danger"
                        icon={<CrossIcon />}
                        text={tr('rechargeOrders.cancel')}
                        onClick={() => setCancelling(order)}
                        data-testid="order-cancel"
                      />
                    )}
                    <Button
                      icon={<DocumentOpenIcon />}
                      text={tr('rechargeOrders.details')}
                      onClick={() => setDetails({ isOpen: true, orderId: order.orderId })}
                      data-testid="order-details"
                    />
                  </ButtonGroup>
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
      <PayingDrawer
        isOpen={paying.isOpen}
        level={null}
        devices={[]}
        order={paying.order}
        onClose={() => setPaying((current) => ({ ...current, isOpen: false }))}
      />
      <Alert
        isOpen={cancelling !== null}
        icon={<TrashIcon />}
        intent="danger"
        confirmButtonText={tr('rechargeOrders.cancelConfirm.confirm')}
        cancelButtonText={tr('rechargeOrders.cancelConfirm.keep')}
        loading={cancel.isPending}
        canEscapeKeyCancel={!cancel.isPending}
        canOutsideClickCancel={!cancel.isPending}
        onConfirm={() => void confirmCancel()}
        onCancel={() => setCancelling(null)}
      >
        <div data-testid="order-cancel-confirm">
          <p>
            <strong>{tr('rechargeOrders.cancelConfirm.title', { code: cancelling?.orderCode ?? '' })}</strong>
          </p>
          <p>{tr('rechargeOrders.cancelConfirm.body')}</p>
        </div>
      </Alert>
      <OrderDetails
        isOpen={details.isOpen}
        orderId={details.orderId}
        onClose={() => setDetails((current) => ({ ...current, isOpen: false }))}
      />
    </>
  );
}
