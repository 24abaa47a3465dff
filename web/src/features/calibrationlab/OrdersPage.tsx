import { H2, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { useLabApplications, type LabListFilter } from '@/lib/api/calibrationLab';
import { ApplicationTable } from './components/ApplicationTable';
import { LabOnly } from './components/LabOnly';
import { ListFilters } from './components/ListFilters';
import { PriceList } from './components/PriceList';
import './calibrationlab.css';

/** The lab's applications (everyone's), filtered by status and number, and its price list in a second tab (?tab=prices). */
export default function OrdersPage() {
  return <LabOnly><Orders /></LabOnly>;
}

function Orders() {
  const { t } = useTranslation('calibrationlab');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'prices' ? 'prices' : 'orders';
  return (
    <div className="jc-cl" data-testid="lab-orders">
      <header className="jc-cl-head"><H2>{t('list.title')}</H2></header>
      <Tabs id="cl-tabs" selectedTabId={tab} onChange={(id) => setParams(id === 'prices' ? { tab: 'prices' } : {})}>
        <Tab id="orders" title={t('list.ordersTab')} panel={<OrderList />} data-testid="tab-orders" />
        <Tab id="prices" title={t('prices.tab')} panel={<PriceList />} data-testid="tab-prices" />
      </Tabs>
    </div>
  );
}

function OrderList() {
  const { role = 'admin' } = useParams();
  const [filter, setFilter] = useState<LabListFilter>({ status: null, applicationNumber: '' });
  const paging = usePaging();
  const query = useLabApplications('all', filter, paging.start, paging.pageSize);
  return (
    <>
      <ListFilters value={filter} onChange={(next) => { setFilter(next); paging.restart(); }} />
      {query.data ? (
        <>
          <ApplicationTable rows={query.data.data} role={role} />
          <PagerFooter {...paging.footer(query.data.totalCount)} />
        </>
      ) : <Spinner className="jc-cl-spinner" />}
    </>
  );
}
