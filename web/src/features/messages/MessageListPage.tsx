import { Button, Card, Classes, H2, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { CalendarIcon, ErrorIcon, InboxIcon, LockIcon, NotificationsIcon, RefreshIcon, WarningSignIcon } from '@blueprintjs/icons';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PagerFooter } from '@/components/PagerFooter';
import { permitsAction, usePermissions } from '@/lib/permissions';
import { useSession } from '@/lib/session';
import { MESSAGE_ROUTE, useAlarmPage, useUntreatedCount, type Alarm } from '@/lib/api/alarms';
import { DEVICE_ROUTE } from './api/deviceOptions';
import { useUnreadSystemCount } from './api/systemMessages';
import { AlarmTable } from './components/AlarmTable';
import { DealDialog } from './components/DealDialog';
import { MessageFilters } from './components/MessageFilters';
import { SystemMessages } from './components/SystemMessages';
import { alarmQuery, isFiltered, NO_FILTERS, rangeIsValid, readFilters, writeFilters, type MessageFilters as Filters } from './listQuery';
import './messages.css';

/**
 * The message centre: the alarm messages of the caller's devices, filtered, paged and handled,
 * and the caller's system messages (`?tab=system`).
 */
export default function MessageListPage() {
  const { t } = useTranslation(['messages', 'app']);
  const { info } = useSession();
  const held = usePermissions();
  const [params, setParams] = useSearchParams();
  const readable = permitsAction(held, MESSAGE_ROUTE, 'query');
  const tab = params.get('tab') === 'system' ? 'system' : 'alarms';
  const untreated = useUntreatedCount(info?.baseAccount.id ?? 0, readable);
  const unreadSystem = useUnreadSystemCount();
  if (!info) return null;
  return (
    <div className="jc-msg" data-testid="message-list-page">
      <header className="jc-msg-head">
        <H2 className="jc-msg-title">{t('app:route.messageList')}</H2>
        <p className={Classes.TEXT_MUTED} data-testid="message-subtitle">
          {tab === 'system' ? t('system.subtitle') : t('subtitle')}
        </p>
      </header>
      <Card className="jc-msg-card" elevation={0}>
        <div className="jc-msg-card-head">
          <Tabs id="message-kinds" selectedTabId={tab} className="jc-msg-tabs" animate={false}
            onChange={(next) => setParams(next === 'system' ? { tab: 'system' } : {})}>
            <Tab
              id="alarms"
              title={t('tabs.alarms')}
              icon={<WarningSignIcon />}
              tagContent={untreated.data ? untreated.data : undefined}
              tagProps={{ intent: 'danger', round: true }}
            />
            <Tab
              id="system"
              title={t('system.tab')}
              icon={<InboxIcon />}
              tagContent={unreadSystem.data ? unreadSystem.data : undefined}
              tagProps={{ intent: 'primary', round: true }}
              data-testid="system-tab"
            />
          </Tabs>
        </div>
        {tab === 'system' ? (
          <SystemMessages />
        ) : readable ? (
          <AlarmMessages accountId={info.baseAccount.id} withDevices={held.has(DEVICE_ROUTE)} />
        ) : (
          <div data-testid="messages-no-permission">
            <NonIdealState icon={<LockIcon />} title={t('noPermission.title')} description={t('noPermission.text')} className="jc-msg-state" />
          </div>
        )}
      </Card>
    </div>
  );
}

function AlarmMessages({ accountId, withDevices }: { accountId: number; withDevices: boolean }) {
  const { t } = useTranslation('messages');
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const filters = readFilters(params);
  const valid = rangeIsValid(filters);
  const query = useAlarmPage(accountId, alarmQuery(filters), valid);
  const untreated = useUntreatedCount(accountId);
  const [dealing, setDealing] = useState<Alarm | null>(null);

  const href = (next: Filters) => {
    const search = writeFilters(next).toString();
    return search ? `${location.pathname}?${search}` : location.pathname;
  };
  const go = (next: Filters) => navigate(href(next));
  // Any new filter starts again on page 1.
  const refine = (change: Partial<Filters>) => go({ ...filters, start: 1, ...change });
  const page = valid ? query.data : undefined;

  // Handling the last row of the last page (under "untreated") leaves that page empty: go back one.
  const lastPage = page ? Math.max(1, Math.ceil(page.totalCount / filters.pageSize)) : 1;
  const pastTheEnd = !query.isPlaceholderData && page !== undefined && page.data.length === 0 && filters.start > lastPage;
  useEffect(() => {
    if (pastTheEnd) navigate(href({ ...filters, start: lastPage }), { replace: true });
  });

  let body: ReactNode;
  if (!valid) {
    body = <NonIdealState icon={<CalendarIcon />} description={t('filter.rangeInvalid')} className="jc-msg-state" />;
  } else if (query.isPending) {
    body = <Spinner className="jc-msg-state" size={32} />;
  } else if (query.isError && !page) {
    body = (
      <div data-testid="messages-failed">
        <NonIdealState icon={<ErrorIcon />} title={t('failed.title')} className="jc-msg-state"
          action={<Button icon={<RefreshIcon />} text={t('failed.retry')} onClick={() => void query.refetch()} />} />
      </div>
    );
  } else if (!page || page.data.length === 0) {
    body = (
      <div data-testid="messages-empty">
        <NonIdealState
          icon={<NotificationsIcon />}
          title={t('empty.title')}
          description={isFiltered(filters) ? t('empty.filtered') : t('empty.text')}
          className="jc-msg-state"
        />
      </div>
    );
  } else {
    body = <AlarmTable alarms={page.data} onDeal={setDealing} />;
  }

  return (
    <>
      <MessageFilters
        accountId={accountId}
        filters={filters}
        withDevices={withDevices}
        onRefine={refine}
        onReset={() => go(NO_FILTERS)}
        onRefresh={() => {
          void query.refetch();
          void untreated.refetch();
        }}
        refreshing={query.isFetching && !query.isPending}
      />
      <div className={`jc-msg-body${query.isPlaceholderData ? ' is-stale' : ''}`} aria-busy={query.isFetching}>
        {body}
      </div>
      {page && page.totalCount > 0 && (
        <PagerFooter
          page={filters.start}
          pageSize={filters.pageSize}
          total={page.totalCount}
          onChange={(start) => go({ ...filters, start })}
          onPageSizeChange={(pageSize) => refine({ pageSize })}
          disabled={query.isFetching}
        />
      )}
      <DealDialog alarm={dealing} onClose={() => setDealing(null)} />
    </>
  );
}
