/**
 * The customer's activity centre (/activities/list; spec seed 001 section 2: recharge records,
 * coupons, recharge cards): their orders (the recharge page's list), the coupons they hold on an
 * unpaid order or used, the cards they redeemed, and "Redeem a card" for one of their devices.
 */
import { Button, H2, HTMLTable, NonIdealState, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { CreditCardIcon, ErrorIcon } from '@blueprintjs/icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Pager } from '@/components/Pager';
import { formatInstant } from '@/lib/units';
import { voucherMoney } from './money';
import { useSlots } from '@/lib/slots';
import { COUPON_TYPE, useMyCards, useMyCoupons } from './api/vouchers';
import { RedeemCardDialog } from './components/RedeemCardDialog';
import './vouchers.css';

const TABS = ['records', 'coupons', 'cards'] as const;
type TabId = (typeof TABS)[number];
const PAGE = 10;

export default function ActivitiesPage() {
  const { t } = useTranslation('vouchers');
  const [params, setParams] = useSearchParams();
  const tab: TabId = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabId) : 'records';
  const [redeeming, setRedeeming] = useState(false);
  const { MyOrders } = useSlots();
  return (
    <div className="jc-act" data-testid="activities-page">
      <header className="jc-act-head">
        <H2>{t('activities.title')}</H2>
        <Button intent="primary" icon={<CreditCardIcon />} text={t('redeem.open')} onClick={() => setRedeeming(true)}
          data-testid="redeem-card" />
      </header>
      <Tabs id="activities-tabs" selectedTabId={tab} renderActiveTabPanelOnly large
        onChange={(id) => setParams({ tab: String(id) })}>
        <Tab id="records" title={t('activities.records')} panel={<MyOrders />} data-testid="activities-tab-records" />
        <Tab id="coupons" title={t('activities.coupons')} panel={<MyCoupons />} data-testid="activities-tab-coupons" />
        <Tab id="cards" title={t('activities.cards')} panel={<MyCards />} data-testid="activities-tab-cards" />
      </Tabs>
      <RedeemCardDialog isOpen={redeeming} onClose={() => setRedeeming(false)} />
    </div>
  );
}

function Table({ headers, rows, total, start, onPage, loading, failed, empty }: { headers: string[];
  rows: { key: string; cells: ReactNode[] }[]; total: number; start: number; onPage: (page: number) => void;
  loading: boolean; failed: boolean; empty: string }) {
  const { t } = useTranslation('vouchers');
  if (failed) return <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} />;
  if (loading) return <Spinner />;
  if (rows.length === 0) return <NonIdealState title={empty} />;
  return (
    <div className="jc-vch-table-wrap">
      <HTMLTable compact striped className="jc-vch-table jc-phone-cards">
        <thead><tr>{headers.map((h) => <th key={h}>{h}</th>)}</tr></thead>
        <tbody>{rows.map((row) => (
          <tr key={row.key} data-testid="mine-row">{row.cells.map((c, i) => <td key={i} data-label={headers[i]}>{c}</td>)}</tr>
        ))}</tbody>
      </HTMLTable>
      {total > PAGE && <Pager page={start} pageSize={PAGE} total={total} onChange={onPage} />}
    </div>
  );
}

function MyCoupons() {
  const { t, i18n } = useTranslation('vouchers');
  const [start, setStart] = useState(1);
  const query = useMyCoupons(start, PAGE);
  const rows = (query.data?.data ?? []).map((c) => ({ key: c.couponCode, cells: [
    <span className="jc-mono">{c.couponCode}</span>,
    c.couponType === COUPON_TYPE.percent ? `${c.amount}%` : voucherMoney(c.amount, c.currency, i18n.language),
    <Tag minimal intent={c.useStatus === 3 ? 'success' : 'warning'}>{t(`state.${c.useStatus}`)}</Tag>,
    c.orderCode ?? '—', formatInstant(c.useTime ?? c.reserveTime, i18n.language, false)] }));
  return <Table headers={[t('field.code'), t('field.worth'), t('field.state'), t('field.order'), t('field.when')]}
    rows={rows} total={query.data?.totalCount ?? 0} start={start} onPage={setStart} loading={!query.data && !query.isError}
    failed={query.isError} empty={t('activities.noCoupons')} />;
}

function MyCards() {
  const { t, i18n } = useTranslation('vouchers');
  const [start, setStart] = useState(1);
  const query = useMyCards(start, PAGE);
  const rows = (query.data?.data ?? []).map((c) => ({ key: c.cardNumber, cells: [
    <span className="jc-mono">{c.cardNumber}</span>, `${c.levelName ?? '—'} · ${t('monthCount', { count: c.timeLength })}`,
    c.deviceName ?? '—', c.orderCode ?? '—', formatInstant(c.useTime, i18n.language, false)] }));
  return <Table headers={[t('field.cardNumber'), t('field.level'), t('field.device'), t('field.order'), t('field.when')]}
    rows={rows} total={query.data?.totalCount ?? 0} start={start} onPage={setStart} loading={!query.data && !query.isError}
    failed={query.isError} empty={t('activities.noCards')} />;
}
