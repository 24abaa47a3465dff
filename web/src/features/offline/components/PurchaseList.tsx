import { Button, Card, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { DownloadIcon, ErrorIcon, LockIcon, SearchIcon, ShoppingCartIcon } from '@blueprintjs/icons';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { formatCents } from '@/lib/money';
import { saveFile } from '@/lib/saveFile';
import { formatInstant } from '@/lib/units';
import { OFFLINE_LIMITS, STATUSES, exportPurchases, usePurchases, type ListKind, type Purchase, type PurchaseFilter } from '../api/offline';
import { contentText } from '../content';
import { StatusTag } from './Tags';

interface PurchaseListProps {
  kind: ListKind;
  /** What the operator may do here: query (the list), export. */
  can: (action: 'query' | 'export') => boolean;
  /** The status the list starts with; undefined: every status ("all" is offered). */
  initialStatus?: number;
  /** Buttons beside the total (recording a purchase). */
  actions?: ReactNode;
  onOpen: (purchase: Purchase) => void;
}

/** Offline purchases found by status, customer and GUID, a page at a time; exported as the filter finds them. */
export function PurchaseList({ kind, can, initialStatus, actions, onOpen }: PurchaseListProps) {
  const { t, i18n } = useTranslation('offline');
  const initial: PurchaseFilter = initialStatus === undefined ? {} : { status: initialStatus };
  const [draft, setDraft] = useState<PurchaseFilter>(initial);
  const [filter, setFilter] = useState<PurchaseFilter>(initial);
  const paging = usePaging();
  const query = usePurchases(kind, filter, paging.start, paging.pageSize, can('query'));
  const [exporting, setExporting] = useState(false);
  const page = query.data;
  const when = (iso: string | null) => (iso ? formatInstant(iso, i18n.language, false) : '—');

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter(draft);
    paging.restart();
  };
  const clear = () => {
    setDraft(initial);
    setFilter(initial);
    paging.restart();
  };
  const runExport = async () => {
    setExporting(true);
    try {
      const file = await exportPurchases(kind, filter);
      saveFile(file.blob, file.fileName ?? 'offline-purchases.xlsx');
    } finally {
      setExporting(false);
    }
  };
  const text = (name: 'customer' | 'guid') => (
    <FormGroup label={t(`filter.${name}`)} labelFor={`ol-${name}`} className="jc-ol-filter">
      <InputGroup id={`ol-${name}`} value={draft[name] ?? ''} maxLength={OFFLINE_LIMITS[name]}
        onChange={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })} data-testid={`ol-filter-${name}`} />
    </FormGroup>
  );

  if (!can('query')) return <NonIdealState icon={<LockIcon />} title={t('noQuery')} />;
  return (
    <Card className="jc-ol-card" elevation={0}>
      <form className="jc-ol-filters" onSubmit={search} data-testid="ol-search">
        <FormGroup label={t('filter.status')} labelFor="ol-status" className="jc-ol-filter">
          <HTMLSelect id="ol-status" fill value={draft.status ?? ''} data-testid="ol-filter-status"
            onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) })}>
            {initialStatus === undefined && <option value="">{t('all')}</option>}
            {STATUSES.map((s) => <option key={s} value={s}>{t(`status.${s}`)}</option>)}
          </HTMLSelect>
        </FormGroup>
        {text('customer')}
        {text('guid')}
        <div className="jc-ol-filter-actions">
          <Button type="submit" intent="primary" icon={<SearchIcon />} text={t('filter.search')} data-testid="ol-search-submit" />
          <Button text={t('filter.clear')} onClick={clear} data-testid="ol-clear" />
        </div>
      </form>
      <div className="jc-ol-toolbar">
        <span className="jc-ol-total" data-testid="ol-total">{page ? t('total', { count: page.totalCount }) : ''}</span>
        <span className="jc-ol-spacer" />
        {can('export') && (
          <Button icon={<DownloadIcon />} text={t('export')} loading={exporting} onClick={() => void runExport()} data-testid="ol-export" />
        )}
        {actions}
      </div>
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} /> : <Spinner />
      ) : page.data.length === 0 ? (
        <NonIdealState icon={<ShoppingCartIcon />} title={t('noMatch')} />
      ) : (
        <HTMLTable className="jc-ol-table jc-phone-cards" striped interactive data-testid="ol-table">
          <thead>
            <tr>
              <th>{t('column.number')}</th>
              <th>{t('column.customer')}</th>
              <th>{t('column.content')}</th>
              <th className="jc-ol-num">{t('column.amount')}</th>
              <th>{t('column.payType')}</th>
              <th className="jc-ol-num">{t('column.devices')}</th>
              <th>{t('column.status')}</th>
              <th>{t('column.recorded')}</th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((purchase) => (
              <tr key={purchase.offlineId} data-testid="ol-row" data-offline-id={purchase.offlineId} tabIndex={0}
                onClick={() => onOpen(purchase)} onKeyDown={(e) => { if (e.key === 'Enter') onOpen(purchase); }}>
                <td data-label={t('column.number')} className="jc-ol-mono">{purchase.offlineId}</td>
                <td data-label={t('column.customer')}>{purchase.customerName}</td>
                <td data-label={t('column.content')}>{contentText(t, purchase)}</td>
                <td data-label={t('column.amount')} className="jc-ol-num">{formatCents(purchase.amount, purchase.currency, i18n.language)}</td>
                <td data-label={t('column.payType')}>{t(`payType.${purchase.payType}`)}</td>
                <td data-label={t('column.devices')} className="jc-ol-num" data-testid="ol-counts">
                  <span>
                    {t('deviceCount', { count: purchase.deviceCount })}
                    {purchase.status === 2 && (
                      <span className="jc-ol-sub jc-ol-block">
                        {t('outcome', { recharged: purchase.rechargedCount, failed: purchase.failedCount })}
                      </span>
                    )}
                  </span>
                </td>
                <td data-label={t('column.status')}><StatusTag status={purchase.status} /></td>
                <td data-label={t('column.recorded')}>
                  {when(purchase.gmtCreate)}
                  {purchase.createdBy && <div className="jc-ol-sub">{purchase.createdBy}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
    </Card>
  );
}
