import { Button, H2, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { isCancelled, useLabApplications, type LabApplication, type LabListFilter } from '@/lib/api/calibrationLab';
import { ApplicationTable } from './components/ApplicationTable';
import { LabOnly } from './components/LabOnly';
import { ListFilters } from './components/ListFilters';
import { QuickOrderDialog } from './components/QuickOrderDialog';
import './calibrationlab.css';

/** The quick orders the lab took on the phone or at the counter, each completed (customer, return address) with handleQuickOrder. */
export default function QuickOrdersPage() {
  return <LabOnly><QuickOrders /></LabOnly>;
}

function QuickOrders() {
  const { t } = useTranslation('calibrationlab');
  const { role = 'admin' } = useParams();
  const [filter, setFilter] = useState<LabListFilter>({ status: null, applicationNumber: '' });
  const [completing, setCompleting] = useState<LabApplication | null>(null);
  const paging = usePaging();
  const query = useLabApplications('quick', filter, paging.start, paging.pageSize);
  return (
    <div className="jc-cl" data-testid="quick-orders">
      <header className="jc-cl-head"><H2>{t('quick.title')}</H2></header>
      <ListFilters value={filter} onChange={(next) => { setFilter(next); paging.restart(); }} />
      {query.data ? (
        <>
          <ApplicationTable rows={query.data.data} role={role} action={(row) => (row.handled
            ? <Tag minimal intent="success">{t('quick.handled')}</Tag>
            : !isCancelled(row.status) && (
              <Button small intent="primary" text={t('quick.complete')} onClick={() => setCompleting(row)} data-testid="quick-complete" />
            ))} />
          <PagerFooter {...paging.footer(query.data.totalCount)} />
        </>
      ) : <Spinner className="jc-cl-spinner" />}
      {completing && <QuickOrderDialog application={completing} onClose={() => setCompleting(null)} />}
    </div>
  );
}
