/**
 * The recharge page's invoices (issue 19): the caller's invoice requests, newest first, each with
 * its orders, amount and invoice details, and its state: waiting (promised by a time three working
 * days after it was asked for, said when it is late), issued (its PDF to download, or sent to the
 * mailbox or address of the invoice details) or rejected with the back office's reason.
 */
import { Button, Callout, Card, Classes, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import { DocumentIcon, DownloadIcon, ErrorIcon, RefreshIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '@/components/Pager';
import { DELIVERY, downloadInvoice, INVOICE_STATUS, invoiceHolder, type Invoice } from '@/lib/api/invoices';
import { formatCents } from '@/lib/money';
import { saveFile } from '@/lib/saveFile';
import { formatInstant } from '@/lib/units';
import { useMyInvoices } from '../api/invoices';
import './myInvoices.css';

export const INVOICE_PAGE_SIZE = 10;
const STATUS_INTENT: Readonly<Record<number, Intent>> = {
  [INVOICE_STATUS.requested]: 'warning', [INVOICE_STATUS.issued]: 'success', [INVOICE_STATUS.rejected]: 'danger',
};

export function MyInvoices() {
  const { t } = useTranslation('recharge', { keyPrefix: 'rechargeInvoices.list' });
  const { t: tp } = useTranslation('recharge', { keyPrefix: 'recharge.page' });
  const [start, setStart] = useState(1);
  const query = useMyInvoices(start, INVOICE_PAGE_SIZE);
  const page = query.data;
  return (
    <section className="jc-rpage-panel" data-testid="my-invoices">
      <div className="jc-rpage-toolbar">
        <span className="jc-rpage-spacer" />
        <Button icon={<RefreshIcon />} variant="minimal" text={tp('refresh')} loading={query.isFetching && !query.isPending}
          onClick={() => void query.refetch()} />
      </div>
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} className="jc-rpage-state" />
          : <Spinner size={32} className="jc-rpage-state" />
      ) : page.data.length === 0 ? (
        <NonIdealState icon={<DocumentIcon />} title={t('empty')} description={t('emptyHint')} className="jc-rpage-state" />
      ) : (
        <ul className="jc-myinv-list">
          {page.data.map((invoice) => <InvoiceCard key={invoice.invoiceId} invoice={invoice} />)}
        </ul>
      )}
      {page !== undefined && page.totalCount > 0 && (
        <div className="jc-rpage-footer jc-rpage-footer--end">
          <Pager page={start} pageSize={INVOICE_PAGE_SIZE} total={page.totalCount} disabled={query.isFetching} onChange={setStart} />
        </div>
      )}
    </section>
  );
}

function InvoiceCard({ invoice }: { invoice: Invoice }) {
  const { t, i18n } = useTranslation('recharge', { keyPrefix: 'rechargeInvoices.list' });
  const [downloading, setDownloading] = useState(false);
  const when = (iso: string | null) => formatInstant(iso, i18n.language, false);
  const download = async () => {
    setDownloading(true);
    try {
      const file = await downloadInvoice(invoice.invoiceId);
      saveFile(file.blob, file.fileName ?? invoice.fileName ?? `invoice-${invoice.invoiceId}.pdf`);
    } catch {
      // the HTTP client has said why
    } finally {
      setDownloading(false);
    }
  };
  const waiting = invoice.status === INVOICE_STATUS.requested;
  return (
    <li>
      <Card className="jc-myinv-card" elevation={0} data-testid="my-invoice" data-status={invoice.status}>
        <div className="jc-myinv-top">
          <strong>{t('number', { id: invoice.invoiceId })}</strong>
          <Tag round minimal={invoice.status !== INVOICE_STATUS.issued} intent={STATUS_INTENT[invoice.status] ?? 'none'}
            data-testid="my-invoice-status">
            {t(`status.${invoice.status}`)}
          </Tag>
        </div>
        <dl className="jc-myinv-fields">
          <div><dt>{t('orders')}</dt><dd className="jc-mono">{invoice.orders.map((o) => o.orderCode).join(', ')}</dd></div>
          <div><dt>{t('amount')}</dt><dd>{formatCents(invoice.amount, invoice.currency, i18n.language)}</dd></div>
          <div><dt>{t('holder')}</dt><dd>{invoiceHolder(invoice.bill)}</dd></div>
          <div><dt>{t('requested')}</dt><dd>{when(invoice.requestTime)}</dd></div>
          {waiting && (
            <div className={invoice.overdue ? 'jc-myinv-late' : undefined}>
              <dt>{t('due')}</dt>
              <dd data-testid="my-invoice-due">{when(invoice.dueTime)}{invoice.overdue ? ` · ${t('late')}` : ''}</dd>
            </div>
          )}
          {invoice.status === INVOICE_STATUS.issued && <div><dt>{t('issued')}</dt><dd>{when(invoice.decidedTime)}</dd></div>}
          {invoice.invoiceNumber && <div><dt>{t('invoiceNumber')}</dt><dd>{invoice.invoiceNumber}</dd></div>}
        </dl>
        {invoice.status === INVOICE_STATUS.rejected && (
          <Callout intent="danger" compact title={t('reason')} data-testid="my-invoice-reason">
            <p className="jc-myinv-reason">{invoice.rejectReason}</p>
            <p className={Classes.TEXT_MUTED}>{t('askAgain')}</p>
          </Callout>
        )}
        {invoice.status === INVOICE_STATUS.issued && (invoice.delivery === DELIVERY.pdf && invoice.fileName ? (
          <Button icon={<DownloadIcon />} intent="primary" text={t('download')} loading={downloading}
            onClick={() => void download()} data-testid="my-invoice-download" />
        ) : (
          <p className={Classes.TEXT_MUTED}>{t('sentToMailbox')}</p>
        ))}
      </Card>
    </li>
  );
}
