import { Button, Classes, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ArrowDownIcon, ArrowUpIcon, ErrorIcon, LockIcon, RefreshIcon, TickCircleIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '@/components/Pager';
import { SignatureList } from '@/components/Signatures';
import type { Alarm } from '@/lib/api/alarms';
import { alarmValue } from '@/lib/alarmValues';
import { usePermitted } from '@/lib/permissions';
import { formatInstant } from '@/lib/units';
import { ALARM_PERMISSION, useDeviceAlarms } from '../api/alarms';
import type { DeviceDetail } from '@/lib/api/devices';

export const ALARM_PAGE_SIZE = 10;
const STATES = ['all', '0', '2', '1'] as const;
/** Deferred (2): untreated again by itself at its deferredUntil. */
const DEFERRED = 2;
type StateFilter = (typeof STATES)[number];

/** The device's alarms, newest first, ten a page, optionally only the untreated or treated ones. */
export function AlarmRecords({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const allowed = usePermitted(ALARM_PERMISSION.route, ALARM_PERMISSION.action);
  const [filter, setFilter] = useState<{ state: StateFilter; start: number }>({ state: 'all', start: 1 });
  const query = useDeviceAlarms(
    {
      deviceId: device.deviceId,
      start: filter.start,
      pageSize: ALARM_PAGE_SIZE,
      ...(filter.state === 'all' ? {} : { state: Number(filter.state) as 0 | 1 | 2 }),
    },
    allowed,
  );
  if (!allowed) {
    return <NonIdealState icon={<LockIcon />} title={t('alarms.noPermission')} className="jc-alarms-empty" />;
  }
  const page = query.data;
  return (
    <div className="jc-alarms" data-testid="device-alarms">
      <div className="jc-alarms-toolbar">
        <HTMLSelect
          aria-label={t('alarms.filter.label')}
          value={filter.state}
          onChange={(event) => setFilter({ state: event.currentTarget.value as StateFilter, start: 1 })}
          options={STATES.map((value) => ({ value, label: t(value === '2' ? 'alarmDefer.filter' : `alarms.filter.${value}`) }))}
          data-testid="alarm-state-filter"
        />
        <Button icon={<RefreshIcon />} variant="minimal" text={t('list.refresh')} loading={query.isFetching}
          onClick={() => void query.refetch()} />
      </div>
      {page === undefined ? (
        query.isError ? (
          <NonIdealState icon={<ErrorIcon />} title={t('alarms.loadFailed')} className="jc-alarms-empty" />
        ) : (
          <Spinner size={32} className="jc-alarms-empty" />
        )
      ) : page.data.length === 0 ? (
        <div data-testid="alarms-empty">
          <NonIdealState icon={<TickCircleIcon />} title={t('alarms.empty')} description={t('alarms.emptyHint')} className="jc-alarms-empty" />
        </div>
      ) : (
        <>
          <AlarmTable alarms={page.data} stale={query.isPlaceholderData} />
          <Pager
            page={filter.start}
            pageSize={ALARM_PAGE_SIZE}
            total={page.totalCount}
            disabled={query.isFetching}
            onChange={(start) => setFilter((current) => ({ ...current, start }))}
          />
        </>
      )}
    </div>
  );
}

function AlarmTable({ alarms, stale }: { alarms: readonly Alarm[]; stale: boolean }) {
  const { t, i18n } = useTranslation('devices');
  return (
    <div className="jc-alarms-table-wrap">
      <HTMLTable compact striped className={stale ? 'jc-alarms-table jc-stale' : 'jc-alarms-table'} data-testid="alarm-table">
        <thead>
          <tr>
            <th scope="col">{t('alarms.column.raisedAt')}</th>
            <th scope="col">{t('alarms.column.probe')}</th>
            <th scope="col">{t('alarms.column.kind')}</th>
            <th scope="col">{t('alarms.column.limit')}</th>
            <th scope="col">{t('alarms.column.value')}</th>
            <th scope="col">{t('alarms.column.extreme')}</th>
            <th scope="col">{t('alarms.column.level')}</th>
            <th scope="col">{t('alarms.column.endedAt')}</th>
            <th scope="col">{t('alarms.column.state')}</th>
          </tr>
        </thead>
        <tbody>
          {alarms.map((alarm) => (
            <tr key={alarm.id} data-testid="alarm-row">
              <td>{formatInstant(alarm.raisedAt, i18n.language)}</td>
              <td>{t(`probe.${alarm.probe}`, { defaultValue: alarm.probe })}</td>
              <td>
                <Tag minimal intent={alarm.kind === 1 ? 'danger' : 'primary'} icon={alarm.kind === 1 ? <ArrowUpIcon /> : <ArrowDownIcon />}>
                  {t(`alarms.kind.${alarm.kind}`, { defaultValue: String(alarm.kind) })}
                </Tag>
              </td>
              <td>{alarmValue(alarm, alarm.limitValue)}</td>
              <td>{alarmValue(alarm, alarm.value)}</td>
              <td className="jc-alarms-extreme">{alarmValue(alarm, alarm.extremeValue)}</td>
              <td>{alarm.level > 0 ? t('alarms.level', { level: alarm.level }) : <span className={Classes.TEXT_MUTED}>—</span>}</td>
              <td>
                {alarm.endedAt ? (
                  formatInstant(alarm.endedAt, i18n.language)
                ) : (
                  <Tag minimal round intent="danger">
                    {t('alarms.ongoing')}
                  </Tag>
                )}
              </td>
              <td>
                <Tag minimal round intent={alarm.state === 1 ? 'success' : alarm.state === DEFERRED ? 'primary' : 'warning'}>
                  {alarm.state === DEFERRED
                    ? t('alarmDefer.state')
                    : t(`alarms.state.${alarm.state}`, { defaultValue: String(alarm.state) })}
                </Tag>
                {alarm.state === DEFERRED && alarm.deferredUntil && (
                  <div className={Classes.TEXT_MUTED} data-testid="alarm-deferred-until">
                    {t('alarmDefer.until', { time: formatInstant(alarm.deferredUntil, i18n.language, false) })}
                  </div>
                )}
                {alarm.handling !== null && (
                  <div className={`${Classes.TEXT_MUTED} jc-alarms-handling`} data-testid="alarm-handling">
                    {[t(`alarms.handling.${alarm.handling}`, { defaultValue: '' }), alarm.handledBy].filter(Boolean).join(' · ')}
                    {alarm.result && <div className="jc-alarms-result">{alarm.result}</div>}
                  </div>
                )}
                <SignatureList signatures={alarm.signatures} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
