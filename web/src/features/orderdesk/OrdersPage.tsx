import { Button, Card, FormGroup, H2, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { DownloadIcon, ErrorIcon, SearchIcon, ShoppingCartIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { formatCents } from '@/lib/money';
import { usePermissions } from '@/lib/permissions';
import { saveFile } from '@/lib/saveFile';
import { formatInstant } from '@/lib/units';
import {
  INVOICE_STATUSES, ORDER_LIMITS, PAY_STATUSES, PAY_TYPES, SORT_FIELDS, exportOrders, useOrders,
  type DeskOrder, type OrderFilter, type OrderSort, type SortField,
} from './api/orders';
import { AwaitingRefunds } from './components/AwaitingRefunds';
import { DeskViews, InvoicesPanel, type DeskView } from './components/InvoicesPanel';
import { OrderDrawer } from './components/OrderDrawer';
import { StatusTag } from './components/StatusTag';
import './orderdesk.css';

const PERMISSION = 'order.recharge';
const EMPTY: OrderFilter = {};
const DEFAULT_SORT: OrderSort = { sortField: 'gmtCreate', sortOrder: 'desc' };
/** The devices of an order by name as ordered, those not listed counted. */
function devicesOf(t: (key: string, options?: Record<string, unknown>) => string, order: DeskOrder): string {
  const names = order.lines.slice(0, 3).map((line) => line.deviceName ?? `#${line.deviceId}`);
  const more = order.deviceCount - names.length;
  return more > 0 ? `${names.join(', ')} ${t('moreDevices', { count: more })}` : names.join(', ');
}

/**
 * The operator's order back office (/operation/recharge): every account's orders, found, exported,
 * read whole, handled, refunded; the refunds awaiting a second operator's approval above them.
 */
export default function OrdersPage() {
  const { t, i18n } = useTranslation(['orderdesk', 'app']);
  const held = usePermissions();
  const [draft, setDraft] = useState<OrderFilter>(EMPTY);
  const [filter, setFilter] = useState<OrderFilter>(EMPTY);
  const [sort, setSort] = useState<OrderSort>(DEFAULT_SORT);
  const paging = usePaging();
  const query = useOrders(filter, sort, paging.start, paging.pageSize);
  const [opened, setOpened] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const [view, setView] = useState<DeskView>('orders');
  const page = query.data;
  const can = (action: string) => held.has(`${PERMISSION}:${action}`);
  const money = (cents: number | null, currency: string) => (cents === null ? '—' : formatCents(cents, currency, i18n.language));
  const when = (iso: string | null) => (iso ? formatInstant(iso, i18n.language, false) : '—');

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter(draft);
    paging.restart();
  };
  const clear = () => {
    setDraft(EMPTY);
    setFilter(EMPTY);
    setSort(DEFAULT_SORT);
    paging.restart();
  };
  const runExport = async () => {
    setExporting(true);
    try {
      const file = await exportOrders(filter);
      saveFile(file.blob, file.fileName ?? 'orders.xlsx');
    } finally {
      setExporting(false);
    }
  };
  const text = (name: 'orderCode' | 'account' | 'device') => (
    <FormGroup label={t(`filter.${name}`)} labelFor={`od-${name}`} className="jc-od-filter">
      <InputGroup id={`od-${name}`} value={draft[name] ?? ''} maxLength={ORDER_LIMITS[name === 'orderCode' ? 'code' : name]}
        onChange={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })} data-testid={`od-${name}`} />
    </FormGroup>
  );
  const choice = (name: 'payType' | 'payStatus' | 'invoiceStatus', values: readonly number[]) => (
    <FormGroup label={t(`filter.${name}`)} labelFor={`od-${name}`} className="jc-od-filter">
      <HTMLSelect id={`od-${name}`} fill value={draft[name] ?? ''} data-testid={`od-${name}`}
        onChange={(e) => setDraft({ ...draft, [name]: e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) })}>
        <option value="">{t('all')}</option>
        {values.map((v) => <option key={v} value={v}>{t(`${name}.${v}`)}</option>)}
      </HTMLSelect>
    </FormGroup>
  );
  const days = (name: 'created' | 'paid') => {
    const from = `${name}From` as const;
    const to = `${name}To` as const;
    return (
      <FormGroup label={t(`filter.${name}`)} className="jc-od-filter jc-od-days">
        <div className="jc-od-range">
          <InputGroup type="date" aria-label={`${t(`filter.${name}`)} ${t('filter.from')}`} value={draft[from] ?? ''}
            max={draft[to] || undefined} onChange={(e) => setDraft({ ...draft, [from]: e.currentTarget.value || undefined })}
            data-testid={`od-${from}`} />
          <span aria-hidden>–</span>
          <InputGroup type="date" aria-label={`${t(`filter.${name}`)} ${t('filter.to')}`} value={draft[to] ?? ''}
            min={draft[from] || undefined} onChange={(e) => setDraft({ ...draft, [to]: e.currentTarget.value || undefined })}
            data-testid={`od-${to}`} />
        </div>
      </FormGroup>
    );
  };

  return (
    <div className="jc-od" data-testid="orderdesk-page">
      <header className="jc-od-head">
        <H2>{t('app:route.rechargeOrders')}</H2>
        <p>{t('subtitle')}</p>
        <DeskViews value={view} onChange={setView} />
      </header>
      {can('refund') && view !== 'invoices' && <AwaitingRefunds onOpen={setOpened} />}
      <Card className="jc-od-card" elevation={0} hidden={view === 'invoices'}>
        <form className="jc-od-filters" onSubmit={search} data-testid="od-search">
          {text('orderCode')}
          {text('account')}
          {text('device')}
          {choice('payType', PAY_TYPES)}
          {choice('payStatus', PAY_STATUSES)}
          {choice('invoiceStatus', INVOICE_STATUSES)}
          {days('created')}
          {days('paid')}
          <div className="jc-od-filter-actions">
            <Button type="submit" intent="primary" icon={<SearchIcon />} text={t('filter.search')} data-testid="od-search-submit" />
            <Button text={t('filter.clear')} onClick={clear} data-testid="od-clear" />
          </div>
        </form>
        <div className="jc-od-toolbar">
          <span className="jc-od-total" data-testid="od-total">{page ? t('total', { count: page.totalCount }) : ''}</span>
          <span className="jc-od-spacer" />
          <HTMLSelect aria-label={t('filter.sort')} value={`${sort.sortField}:${sort.sortOrder}`} data-testid="od-sort"
            onChange={(e) => {
              const [sortField, sortOrder] = e.currentTarget.value.split(':') as [SortField, 'asc' | 'desc'];
              setSort({ sortField, sortOrder });
              paging.restart();
            }}>
            {SORT_FIELDS.flatMap((field) => (['desc', 'asc'] as const).map((order) => (
              <option key={`${field}:${order}`} value={`${field}:${order}`}>{t(`sort.${field}_${order}`)}</option>
            )))}
          </HTMLSelect>
          {can('export') && (
            <Button icon={<DownloadIcon />} text={t('export')} loading={exporting} onClick={() => void runExport()} data-testid="od-export" />
          )}
        </div>
        {page === undefined ? (
          query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} /> : <Spinner />
        ) : page.data.length === 0 ? (
          <NonIdealState icon={<ShoppingCartIcon />} title={t('noMatch')} />
        ) : (
          <>
            <HTMLTable className="jc-od-table" striped interactive data-testid="od-table">
              <thead>
                <tr>
                  <th>{t('column.order')}</th>
                  <th>{t('column.account')}</th>
                  <th>{t('column.devices')}</th>
                  <th className="jc-od-num">{t('column.amount')}</th>
                  <th>{t('column.payType')}</th>
                  <th>{t('column.status')}</th>
                  <th>{t('column.created')}</th>
                  <th>{t('column.paid')}</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((order) => (
                  <tr key={order.orderId} data-testid="od-row" data-order-code={order.orderCode} tabIndex={0}
                    onClick={() => setOpened(order.orderId)} onKeyDown={(e) => { if (e.key === 'Enter') setOpened(order.orderId); }}>
                    <td><span className="jc-od-code">{order.orderCode}</span><div className="jc-od-sub">{order.orderDescription}</div></td>
                    <td>{order.payer.userName}<div className="jc-od-sub">{order.payer.phone ?? order.payer.email ?? ''}</div></td>
                    <td className="jc-od-devices">{devicesOf(t, order)}</td>
                    <td className="jc-od-num">{money(order.orderFee, order.currency)}</td>
                    <td>{t(`payType.${order.payType}`)}</td>
                    <td><StatusTag status={order.payStatus} /></td>
                    <td>{when(order.gmtCreate)}</td>
                    <td>{when(order.payTime)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
            <ul className="jc-od-cards" data-testid="od-cards">
              {page.data.map((order) => (
                <li key={order.orderId}>
                  <button type="button" className="jc-od-item" onClick={() => setOpened(order.orderId)} data-testid="od-card">
                    <span className="jc-od-item-top">
                      <span className="jc-od-code">{order.orderCode}</span>
                      <StatusTag status={order.payStatus} />
                    </span>
                    <span className="jc-od-item-line">
                      <strong>{money(order.orderFee, order.currency)}</strong>
                      <span>{t(`payType.${order.payType}`)}</span>
                    </span>
                    <span className="jc-od-sub">{order.payer.userName} · {devicesOf(t, order)}</span>
                    <span className="jc-od-sub">{when(order.gmtCreate)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
        {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
      </Card>
      {view === 'invoices' && <InvoicesPanel />}
      <OrderDrawer orderId={opened} canHandle={can('edit')} canRefund={can('refund')} onClose={() => setOpened(null)} />
    </div>
  );
}
