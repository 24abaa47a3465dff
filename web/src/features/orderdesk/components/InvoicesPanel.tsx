/**
 * The order desk's invoices (issue 19): every account's invoice requests, the oldest waiting first,
 * those waiting past the three working days promised shown in red; found by status, account and
 * overdue, exported, and each opened to be issued (its PDF, or sent to the mailbox) or rejected.
 */
import {
  Button, Card, Checkbox, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, SegmentedControl, Spinner, Tag,
} from '@blueprintjs/core';
import { DocumentIcon, DownloadIcon, ErrorIcon, SearchIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { INVOICE_STATUS, INVOICE_STATUSES, invoiceHolder } from '@/lib/api/invoices';
import { formatCents } from '@/lib/money';
import { usePermissions } from '@/lib/permissions';
import { saveFile } from '@/lib/saveFile';
import { formatInstant } from '@/lib/units';
import { exportInvoices, INVOICE_LIMITS, useInvoiceQueue, type DeskInvoice, type InvoiceFilter } from '../api/invoices';
import { InvoiceDialog } from './InvoiceDialog';
import './invoicesPanel.css';

const PERMISSION = 'order.recharge';
/** The queue opens on what waits. */
const WAITING: InvoiceFilter = { status: INVOICE_STATUS.requested };

export type DeskView = 'orders' | 'invoices';

/** The order desk's two views: its orders, and the invoice requests. */
export function DeskViews({ value, onChange }: { value: DeskView; onChange: (view: DeskView) => void }) {
  const { t } = useTranslation('orderdesk');
  return (
    <SegmentedControl aria-label={t('invoices.views.label')} value={value} data-testid="od-views"
      onValueChange={(view) => onChange(view === 'invoices' ? 'invoices' : 'orders')}
      options={[{ value: 'orders', label: t('invoices.views.orders') }, { value: 'invoices', label: t('invoices.views.invoices') }]} />
  );
}

/** An invoice's status, with overdue said in red. */
export function InvoiceStatusTag({ invoice }: { invoice: DeskInvoice }) {
  const { t } = useTranslation('orderdesk');
  if (invoice.overdue) return <Tag round intent="danger" data-testid="inv-status">{t('invoices.overdue')}</Tag>;
  const intent = invoice.status === INVOICE_STATUS.issued ? 'success' : invoice.status === INVOICE_STATUS.rejected ? 'none' : 'warning';
  return <Tag round minimal intent={intent} data-testid="inv-status">{t(`invoices.status.${invoice.status}`)}</Tag>;
}

export function InvoicesPanel() {
  const { t, i18n } = useTranslation('orderdesk');
  const held = usePermissions();
  const [draft, setDraft] = useState<InvoiceFilter>(WAITING);
  const [filter, setFilter] = useState<InvoiceFilter>(WAITING);
  const paging = usePaging();
  const query = useInvoiceQueue(filter, paging.start, paging.pageSize);
  const [opened, setOpened] = useState<DeskInvoice | null>(null);
  const [exporting, setExporting] = useState(false);
  const page = query.data;
  const can = (action: string) => held.has(`${PERMISSION}:${action}`);
  const money = (invoice: DeskInvoice) => formatCents(invoice.amount, invoice.currency, i18n.language);
  const when = (iso: string | null) => (iso ? formatInstant(iso, i18n.language, false) : '—');
  const codes = (invoice: DeskInvoice) => invoice.orders.map((o) => o.orderCode).join(', ');
  const delivery = (invoice: DeskInvoice) => t(`invoices.delivery.${invoice.bill.billMode === 2 ? 'email' : 'post'}`);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter(draft);
    paging.restart();
  };
  const clear = () => {
    setDraft(WAITING);
    setFilter(WAITING);
    paging.restart();
  };
  const runExport = async () => {
    setExporting(true);
    try {
      const file = await exportInvoices(filter);
      saveFile(file.blob, file.fileName ?? 'invoices.xlsx');
    } catch {
      // the HTTP client has said why
    } finally {
      setExporting(false);
    }
  };
  // Keeps the request opened in step with the queue once a decision has read it again.
  const current = opened && page ? page.data.find((row) => row.invoiceId === opened.invoiceId) ?? opened : opened;

  return (
    <Card className="jc-od-card jc-inv" elevation={0} data-testid="inv-panel">
      <p className="jc-inv-lead">{t('invoices.subtitle')}</p>
      <form className="jc-od-filters" onSubmit={search} data-testid="inv-search">
        <FormGroup label={t('invoices.filter.status')} labelFor="inv-status" className="jc-od-filter">
          <HTMLSelect id="inv-status" fill value={draft.status ?? ''} data-testid="inv-status-filter"
            onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) })}>
            <option value="">{t('invoices.all')}</option>
            {INVOICE_STATUSES.map((s) => <option key={s} value={s}>{t(`invoices.status.${s}`)}</option>)}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('invoices.filter.account')} labelFor="inv-account" className="jc-od-filter">
          <InputGroup id="inv-account" value={draft.account ?? ''} maxLength={INVOICE_LIMITS.account} data-testid="inv-account"
            onChange={(e) => setDraft({ ...draft, account: e.currentTarget.value })} />
        </FormGroup>
        <Checkbox className="jc-inv-overdue-only" label={t('invoices.filter.overdueOnly')} checked={draft.overdue === true}
          onChange={(e) => setDraft({ ...draft, overdue: e.currentTarget.checked ? true : undefined })} data-testid="inv-overdue-only" />
        <div className="jc-od-filter-actions">
          <Button type="submit" intent="primary" icon={<SearchIcon />} text={t('invoices.filter.search')} data-testid="inv-search-submit" />
          <Button text={t('invoices.filter.clear')} onClick={clear} />
        </div>
      </form>
      <div className="jc-od-toolbar">
        <span className="jc-od-total" data-testid="inv-total">{page ? t('invoices.total', { count: page.totalCount }) : ''}</span>
        <span className="jc-od-spacer" />
        {can('export') && (
          <Button icon={<DownloadIcon />} text={t('invoices.export')} loading={exporting} onClick={() => void runExport()}
            data-testid="inv-export" />
        )}
      </div>
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('invoices.loadFailed')} /> : <Spinner />
      ) : page.data.length === 0 ? (
        <NonIdealState icon={<DocumentIcon />} title={t('invoices.empty')} />
      ) : (
        <>
          <HTMLTable className="jc-od-table" striped interactive data-testid="inv-table">
            <thead>
              <tr>
                <th>{t('invoices.column.request')}</th>
                <th>{t('invoices.column.account')}</th>
                <th>{t('invoices.column.orders')}</th>
                <th className="jc-od-num">{t('invoices.column.amount')}</th>
                <th>{t('invoices.column.holder')}</th>
                <th>{t('invoices.column.delivery')}</th>
                <th>{t('invoices.column.requested')}</th>
                <th>{t('invoices.column.due')}</th>
                <th>{t('invoices.column.status')}</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((invoice) => (
                <tr key={invoice.invoiceId} className={invoice.overdue ? 'jc-inv-overdue' : undefined} data-testid="inv-row"
                  data-overdue={invoice.overdue} tabIndex={0} onClick={() => setOpened(invoice)}
                  onKeyDown={(e) => { if (e.key === 'Enter') setOpened(invoice); }}>
                  <td>#{invoice.invoiceId}{invoice.automatic && <div className="jc-od-sub">{t('invoices.automatic')}</div>}</td>
                  <td>{invoice.userName}</td>
                  <td className="jc-od-code">{codes(invoice)}</td>
                  <td className="jc-od-num">{money(invoice)}</td>
                  <td>{invoiceHolder(invoice.bill)}<div className="jc-od-sub">{invoice.bill.taxNumber ?? t(`invoices.type.${invoice.bill.invoiceType}`)}</div></td>
                  <td>{delivery(invoice)}</td>
                  <td>{when(invoice.requestTime)}</td>
                  <td className="jc-inv-due">{when(invoice.dueTime)}</td>
                  <td><InvoiceStatusTag invoice={invoice} /></td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <ul className="jc-od-cards" data-testid="inv-cards">
            {page.data.map((invoice) => (
              <li key={invoice.invoiceId}>
                <button type="button" className={`jc-od-item${invoice.overdue ? ' jc-inv-overdue' : ''}`}
                  onClick={() => setOpened(invoice)} data-testid="inv-card">
                  <span className="jc-od-item-top">
                    <span>#{invoice.invoiceId} · {invoice.userName}</span>
                    <InvoiceStatusTag invoice={invoice} />
                  </span>
                  <span className="jc-od-item-line">
                    <strong>{money(invoice)}</strong>
                    <span>{delivery(invoice)}</span>
                  </span>
                  <span className="jc-od-sub">{invoiceHolder(invoice.bill)} · {codes(invoice)}</span>
                  <span className="jc-od-sub jc-inv-due">{t('invoices.column.due')}: {when(invoice.dueTime)}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
      <InvoiceDialog invoice={current} canEdit={can('edit')} canDownload={can('detail')} onClose={() => setOpened(null)} />
    </Card>
  );
}
