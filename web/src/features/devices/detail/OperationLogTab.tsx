import { Button, Classes, HTMLTable, NonIdealState, SegmentedControl, Spinner } from '@blueprintjs/core';
import { ErrorIcon, HistoryIcon, RefreshIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OperationTable } from '@/components/OperationTable';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { useDeviceOperations } from '@/lib/api/operationLog';
import type { DeviceDetail } from '@/lib/api/devices';
import { DEFAULT_PAGE_SIZE } from '@/lib/paging';
import { formatInstant } from '@/lib/units';
import { useOperationLog, type DeviceEvent } from '../api/detailTabs';

/** The kinds the server records (src/core/devices/events.py); another is shown by its name. */
const KINDS = new Set([
  'data_cleared', 'deleted', 'params_changed', 'limits_changed', 'maintenance_added', 'maintenance_changed',
  'maintenance_deleted', 'credentials_rotated',
]);

/**
 * The operation log tab: the device's events (what was done and by whom, as a sentence), or the
 * operation log's entries for it (every change made through the console, field by field).
 */
export function OperationLogTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('operationLog');
  const [view, setView] = useState<'events' | 'changes'>('events');
  return (
    <div className="jc-tab-log-views">
      <SegmentedControl className="jc-tab-log-switch" size="small" value={view} aria-label={t('tab.changes')}
        onValueChange={(value) => setView(value as 'events' | 'changes')} data-testid="device-log-view"
        options={[{ value: 'events', label: t('tab.events') }, { value: 'changes', label: t('tab.changes') }]} />
      {view === 'events' ? <DeviceEvents device={device} /> : <DeviceChanges device={device} />}
    </div>
  );
}

/** The operation log's entries of the device, newest first, whoever made them. */
function DeviceChanges({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation(['operationLog', 'devices']);
  const paging = usePaging();
  const query = useDeviceOperations(device.deviceId, paging.start, paging.pageSize);
  const page = query.data;
  return (
    <div className="jc-tab-log" data-testid="device-changes">
      <div className="jc-tab-toolbar">
        <p className="jc-tab-intro">{t('tab.intro')}</p>
        <Button icon={<RefreshIcon />} variant="minimal" text={t('devices:list.refresh')} loading={query.isFetching}
          onClick={() => void query.refetch()} />
      </div>
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} /> : <Spinner size={30} />
      ) : page.data.length === 0 ? (
        <div data-testid="changes-empty"><NonIdealState icon={<HistoryIcon />} title={t('empty')} /></div>
      ) : (
        <>
          <OperationTable operations={page.data} stale={query.isPlaceholderData} />
          <PagerFooter {...paging.footer(page.totalCount)} disabled={query.isFetching} />
        </>
      )}
    </div>
  );
}

function DeviceEvents({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const [paging, setPaging] = useState({ start: 1, pageSize: DEFAULT_PAGE_SIZE });
  const query = useOperationLog(device.deviceId, paging.start, paging.pageSize);
  const page = query.data;
  return (
    <div className="jc-tab-log" data-testid="device-log">
      <div className="jc-tab-toolbar">
        <p className="jc-tab-intro">{t('logTab.intro')}</p>
        <Button icon={<RefreshIcon />} variant="minimal" text={t('list.refresh')} loading={query.isFetching}
          onClick={() => void query.refetch()} />
      </div>
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('logTab.loadFailed')} /> : <Spinner size={30} />
      ) : page.data.length === 0 ? (
        <div data-testid="log-empty">
          <NonIdealState icon={<HistoryIcon />} title={t('logTab.empty')} />
        </div>
      ) : (
        <>
          <div className="jc-tab-table-wrap">
            <HTMLTable compact striped className={query.isPlaceholderData ? 'jc-tab-table jc-stale' : 'jc-tab-table'} data-testid="log-table">
              <thead>
                <tr>
                  <th scope="col">{t('logTab.column.at')}</th>
                  <th scope="col">{t('logTab.column.what')}</th>
                  <th scope="col">{t('logTab.column.actor')}</th>
                  <th scope="col">{t('logTab.column.detail')}</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((event) => <EventRow key={event.id} event={event} />)}
              </tbody>
            </HTMLTable>
          </div>
          <PagerFooter page={paging.start} pageSize={paging.pageSize} total={page.totalCount} disabled={query.isFetching}
            onChange={(start) => setPaging((current) => ({ ...current, start }))}
            onPageSizeChange={(pageSize) => setPaging({ start: 1, pageSize })} />
        </>
      )}
    </div>
  );
}

function EventRow({ event }: { event: DeviceEvent }) {
  const { t, i18n } = useTranslation('devices');
  return (
    <tr data-testid="log-row" data-kind={event.kind}>
      <td className="jc-tab-nowrap">{formatInstant(event.at, i18n.language)}</td>
      <td>{KINDS.has(event.kind) ? t(`logTab.kind.${event.kind}`) : event.kind}</td>
      <td>{event.actorName ?? <span className={Classes.TEXT_MUTED}>{t('logTab.actorGone')}</span>}</td>
      <td className="jc-tab-detail">{event.detail ?? ''}</td>
    </tr>
  );
}
