/**
 * The coupons and recharge cards tabs of /service/package (issue 18): batches with how many of
 * their codes or cards are unused, reserved and used; issue a batch (cards: their secrets come once,
 * as the downloaded XLSX), disable or enable one, export one, and see each code or card with its
 * state, who used it, when and on which order. Needs order.servicePackage (query, add, edit, export).
 */
import { Button, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { AddIcon, DownloadIcon, ErrorIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { Pager } from '@/components/Pager';
import { usePaging } from '@/hooks/usePaging';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { saveFile } from '@/lib/saveFile';
import { formatInstant } from '@/lib/units';
import { voucherMoney } from './money';
import {
  COUPON_TYPE, createCardsFile, createCoupons, exportCards, exportCoupons, setCardBatch, setCouponBatch, useCardBatches,
  useCards, useCouponBatches, useCoupons, voucherKeys, type CardBatch, type CouponBatch,
} from './api/vouchers';
import { BatchDialog, type BatchKind } from './components/BatchForm';
import './vouchers.css';

const PERMISSION = 'order.servicePackage';
type Batch = CouponBatch | CardBatch;

function StateTag({ state }: { state: number }) {
  const { t } = useTranslation('vouchers');
  const intent = state === 3 ? 'success' : state === 2 ? 'warning' : 'none';
  return <Tag minimal intent={intent} data-testid="use-status">{t(`state.${state}`)}</Tag>;
}

function worth(batch: CouponBatch, language: string): string {
  return batch.couponType === COUPON_TYPE.percent ? `${batch.amount}%` : voucherMoney(batch.amount, batch.currency, language);
}

export function BatchesPanel({ kind }: { kind: BatchKind }) {
  const { t, i18n } = useTranslation('vouchers');
  const held = usePermissions();
  const can = (action: string) => held.has(`${PERMISSION}:${action}`);
  const queryClient = useQueryClient();
  const paging = usePaging();
  const coupons = useCouponBatches(paging.start, paging.pageSize);
  const cards = useCardBatches(paging.start, paging.pageSize);
  const query = kind === 'coupons' ? coupons : cards;
  const [issuing, setIssuing] = useState(false);
  const [chosen, setChosen] = useState<number | null>(null);
  const when = (iso: string | null) => formatInstant(iso, i18n.language, false);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: voucherKeys.all });
  const issue = async (body: object) => {
    if (kind === 'coupons') {
      const batch = await createCoupons(body as Parameters<typeof createCoupons>[0]);
      notify.success(t('coupons.issued', { count: batch.count }));
    } else {
      const file = await createCardsFile(body as Parameters<typeof createCardsFile>[0]);
      saveFile(file.blob, file.fileName ?? 'cards.xlsx');
      notify.success(t('cards.issued'));
    }
    paging.restart();
    refresh();
  };
  const toggle = async (batch: Batch) => {
    const status = batch.status === 1 ? 0 : 1;
    await (kind === 'coupons' ? setCouponBatch(batch.id, status) : setCardBatch(batch.id, status));
    refresh();
  };
  const download = async (batch: Batch) => {
    const file = await (kind === 'coupons' ? exportCoupons(batch.id) : exportCards(batch.id));
    saveFile(file.blob, file.fileName ?? `${kind}-${batch.id}.xlsx`);
  };

  const page = query.data;
  return (
    <div data-testid={`vouchers-${kind}`}>
      <div className="jc-vch-toolbar">
        <span>{page ? t('batchCount', { count: page.totalCount }) : null}</span>
        {can('add') && <Button intent="primary" icon={<AddIcon />} text={t(`${kind}.issue`)} onClick={() => setIssuing(true)}
          data-testid={`issue-${kind}`} />}
      </div>
      {query.isError ? (
        <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} />
      ) : !page ? (
        <Spinner />
      ) : page.data.length === 0 ? (
        <NonIdealState title={t(`${kind}.none`)} />
      ) : (
        <div className="jc-vch-table-wrap">
          <HTMLTable compact striped interactive className="jc-vch-table jc-phone-cards" data-testid="batch-table">
            <thead>
              <tr>
                <th>{t('field.prefix')}</th>
                <th>{kind === 'coupons' ? t('field.worth') : t('field.level')}</th>
                <th>{t('field.count')}</th>
                <th>{t('field.usage')}</th>
                <th>{t('field.validity')}</th>
                <th>{t('field.activity')}</th>
                <th>{t('field.remark')}</th>
                <th>{t('field.status')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {page.data.map((batch) => (
                <tr key={batch.id} onClick={() => setChosen(batch.id)} data-testid="batch-row"
                  aria-selected={chosen === batch.id}>
                  <td className="jc-mono" data-label={t('field.prefix')}>{batch.prefix || '—'}</td>
                  <td data-label={kind === 'coupons' ? t('field.worth') : t('field.level')}>{'couponType' in batch ? worth(batch, i18n.language)
                    : `${batch.levelName ?? '—'} · ${t('monthCount', { count: batch.timeLength })}`}</td>
                  <td data-label={t('field.count')}>{batch.count}</td>
                  <td data-label={t('field.usage')}>{t('usage', { used: batch.usedCount, reserved: 'reservedCount' in batch ? batch.reservedCount : 0,
                    unused: batch.unusedCount })}</td>
                  <td data-label={t('field.validity')}>{when(batch.startTime)} – {when(batch.endTime)}</td>
                  <td data-label={t('field.activity')}>{batch.activityName ?? '—'}</td>
                  <td data-label={t('field.remark')}>{batch.remark || '—'}</td>
                  <td data-label={t('field.status')}><Tag minimal intent={batch.status === 1 ? 'success' : 'none'}>{t(`status.${batch.status}`)}</Tag></td>
                  <td className="jc-vch-actions" onClick={(event) => event.stopPropagation()}>
                    {can('export') && <Button variant="minimal" size="small" icon={<DownloadIcon />} aria-label={t('export')}
                      title={t('export')} onClick={() => void download(batch)} data-testid="batch-export" />}
                    {can('edit') && <Button variant="minimal" size="small" text={batch.status === 1 ? t('disable') : t('enable')}
                      onClick={() => void toggle(batch)} data-testid="batch-toggle" />}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <PagerFooter {...paging.footer(page.totalCount)} />
        </div>
      )}
      {chosen !== null && <Items kind={kind} batchId={chosen} />}
      <BatchDialog kind={kind} isOpen={issuing} onClose={() => setIssuing(false)} onSubmit={issue} />
    </div>
  );
}

function Items({ kind, batchId }: { kind: BatchKind; batchId: number }) {
  const { t, i18n } = useTranslation('vouchers');
  const [start, setStart] = useState(1);
  const coupons = useCoupons(kind === 'coupons' ? batchId : null, start);
  const cards = useCards(kind === 'cards' ? batchId : null, start);
  const when = (iso: string | null) => formatInstant(iso, i18n.language, false);
  const rows: { key: string; cells: ReactNode[] }[] = kind === 'coupons'
    ? (coupons.data?.data ?? []).map((c) => ({ key: c.couponCode, cells: [
      <span className="jc-mono">{c.couponCode}</span>, <StateTag state={c.useStatus} />, c.userName ?? '—', c.orderCode ?? '—',
      when(c.useTime ?? c.reserveTime)] }))
    : (cards.data?.data ?? []).map((c) => ({ key: c.cardNumber, cells: [
      <span className="jc-mono">{c.cardNumber}</span>, <StateTag state={c.useStatus} />, c.userName ?? '—',
      c.deviceName ?? '—', c.orderCode ?? '—', when(c.useTime)] }));
  const total = (kind === 'coupons' ? coupons.data?.totalCount : cards.data?.totalCount) ?? 0;
  const headers = kind === 'coupons'
    ? [t('field.code'), t('field.state'), t('field.user'), t('field.order'), t('field.when')]
    : [t('field.cardNumber'), t('field.state'), t('field.user'), t('field.device'), t('field.order'), t('field.when')];
  return (
    <section className="jc-vch-codes jc-vch-table-wrap" data-testid="batch-items">
      <h4>{t(`${kind}.items`)}</h4>
      <HTMLTable compact striped className="jc-vch-table jc-phone-cards">
        <thead><tr>{headers.map((h) => <th key={h}>{h}</th>)}</tr></thead>
        <tbody>
          {rows.map((row) => <tr key={row.key} data-testid="item-row">{row.cells.map((cell, i) => <td key={i} data-label={headers[i]}>{cell}</td>)}</tr>)}
        </tbody>
      </HTMLTable>
      {total > 10 && <Pager page={start} pageSize={10} total={total} onChange={setStart} />}
    </section>
  );
}

export function CouponsPanel() {
  return <BatchesPanel kind="coupons" />;
}

export function CardsPanel() {
  return <BatchesPanel kind="cards" />;
}
