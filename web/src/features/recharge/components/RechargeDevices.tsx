/**
 * The recharge page's devices: the caller's devices of every scene, searched by name, filtered by
 * service and paged, with a checkbox each. Devices chosen for one recharge must share a type: once
 * one is chosen, the other types' checkboxes are disabled, and so are those of devices the caller may
 * only read (the server would refuse their orders). The choice outlives a search or another page;
 * "Recharge" and "Buy SMS/voice" act on it.
 */
import {
  Button,
  Checkbox,
  Classes,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  Icon,
  NonIdealState,
  SegmentedControl,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import {
  ChatIcon, CreditCardIcon, ErrorIcon, InfoSignIcon, LockIcon, RefreshIcon, SearchIcon,
  TickCircleIcon,
} from '@blueprintjs/icons';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { mayChange } from '@/features/devices/access';
import { useDevicePage, type Device, type DeviceQuery, type VipState } from '@/features/devices/api/devices';
import { ServiceExpiry } from '@/features/devices/components/DeviceTags';
import { ReadOnlyTag, useReadOnlyReason } from '@/features/devices/components/ReadOnly';
import { PAGE_SIZES } from '@/features/devices/listQuery';
import { editionConfig } from '@/lib/config';
import { usePermissions } from '@/lib/permissions';
import { NO_VALUE } from '@/lib/units';
import { NameSearch } from '@/components/NameSearch';
import { Pager } from '@/components/Pager';

import {
  canSelect,
  emptySelection,
  MAX_BATCH_DEVICES,
  selectedTypeId,
  toggleSelection,
  type BatchSelection,
} from '../batchSelection';
import { dialCode } from '../format';
import { StockCount } from '../RechargeDrawer';

/** The route permission the device list API asks for. */
export const DEVICE_LIST_PERMISSION = 'device.list';

export const SERVICE_FILTERS = ['all', 'expiring', 'expired'] as const;
export type ServiceFilter = (typeof SERVICE_FILTERS)[number];
const VIP_STATE: Readonly<Record<ServiceFilter, VipState | undefined>> = { all: undefined, expiring: 1, expired: 2 };

/** What the page keeps of a chosen device. */
export type ChosenDevice = Pick<Device, 'deviceId' | 'deviceName' | 'typeId' | 'deviceTypeName'>;

interface Filters {
  deviceName: string;
  service: ServiceFilter;
  start: number;
  pageSize: number;
}

const NO_FILTERS: Filters = { deviceName: '', service: 'all', start: 1, pageSize: PAGE_SIZES[0] };

/** The device list's filters without a scene: the caller's devices of every scene. */
function deviceQuery(filters: Filters): DeviceQuery {
  const vipState = VIP_STATE[filters.service];
  return {
    start: filters.start,
    pageSize: filters.pageSize,
    ...(filters.deviceName ? { deviceName: filters.deviceName } : {}),
    ...(vipState !== undefined ? { vipState } : {}),
  };
}

export interface RechargeDevicesProps {
  /** Recharge the chosen devices (the recharge drawer). */
  onRecharge: (deviceIds: readonly number[]) => void;
  /** Buy SMS and voice packages for the chosen devices (the SMS/voice drawer). */
  onBuyAlerts: (deviceIds: readonly number[]) => void;
}

export function RechargeDevices({ onRecharge, onBuyAlerts }: RechargeDevicesProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.page' });
  const held = usePermissions();
  const allowed = held.has(DEVICE_LIST_PERMISSION);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [selection, setSelection] = useState<BatchSelection<ChosenDevice>>(emptySelection);
  const query = useDevicePage(deviceQuery(filters), allowed);
  const page = query.data;
  // Any new filter starts again on page 1.
  const refine = (change: Partial<Filters>) => setFilters((current) => ({ ...current, start: 1, ...change }));
  const chosen = [...selection.keys()];
  const first = selection.values().next().value;

  if (!allowed) {
    return (
      <div data-testid="recharge-devices-forbidden">
        <NonIdealState icon={<LockIcon />} title={t('devices.noPermission')} className="jc-rpage-state" />
      </div>
    );
  }

  return (
    <section className="jc-rpage-panel" data-testid="recharge-devices">
      <Toolbar
        filters={filters}
        onRefine={refine}
        onRefresh={() => void query.refetch()}
        refreshing={query.isFetching && !query.isPending}
      />
      <div className={`jc-rpage-actionbar${selection.size ? ' is-active' : ''}`} data-testid="recharge-selection">
        <div className="jc-rpage-selection">
          {first ? (
            <>
              <Icon icon={<TickCircleIcon />} intent="primary" />
              <span data-testid="recharge-selected">
                <strong>{t('devices.selected', { count: selection.size })}</strong>
                <span className={Classes.TEXT_MUTED}> · {first.deviceTypeName}</span>
              </span>
              <Button
                variant="minimal"
                size="small"
                text={t('devices.clearSelection')}
                onClick={() => setSelection(emptySelection())}
                data-testid="recharge-clear-selection"
              />
            </>
          ) : (
            <>
              <Icon icon={<InfoSignIcon />} className={Classes.TEXT_MUTED} />
              <span className={Classes.TEXT_MUTED}>{t('devices.oneTypeHint', { max: MAX_BATCH_DEVICES })}</span>
            </>
          )}
        </div>
        <div className="jc-rpage-actions">
          <Button
            icon={<ChatIcon />}
            variant="outlined"
            text={t('devices.buyAlerts')}
            disabled={chosen.length === 0}
            onClick={() => onBuyAlerts(chosen)}
            data-testid="recharge-buy-alerts"
          />
          <Button
            icon={<CreditCardIcon />}
            intent="primary"
            text={chosen.length > 1 ? t('devices.rechargeSome', { count: chosen.length }) : t('devices.recharge')}
            disabled={chosen.length === 0}
            onClick={() => onRecharge(chosen)}
            data-testid="recharge-open"
          />
        </div>
      </div>
      <div className="jc-rpage-table-wrap" aria-busy={query.isFetching}>
        {page === undefined ? (
          query.isError ? (
            <div data-testid="recharge-devices-failed">
              <NonIdealState
                icon={<ErrorIcon />}
                title={t('devices.loadFailed')}
                action={<Button icon={<RefreshIcon />} text={t('retry')} onClick={() => void query.refetch()} />}
                className="jc-rpage-state"
              />
            </div>
          ) : (
            <Spinner size={32} className="jc-rpage-state" />
          )
        ) : page.data.length === 0 ? (
          <div data-testid="recharge-devices-empty">
            <NonIdealState
              icon={<SearchIcon />}
              title={t('devices.empty')}
              description={filters.deviceName || filters.service !== 'all' ? t('devices.emptyFiltered') : undefined}
              className="jc-rpage-state"
            />
          </div>
        ) : (
          <DeviceTable
            devices={page.data}
            selection={selection}
            stale={query.isPlaceholderData}
            onToggle={(device) =>
              setSelection((current) => toggleSelection(current, device.deviceId, chosenOf(device)))
            }
          />
        )}
      </div>
      {page !== undefined && page.totalCount > 0 && (
        <div className="jc-rpage-footer">
          <FormGroup inline label={t('pageSize')} labelFor="jc-recharge-page-size" className="jc-rpage-page-size">
            <HTMLSelect
              id="jc-recharge-page-size"
              value={filters.pageSize}
              onChange={(event) => refine({ pageSize: Number(event.currentTarget.value) })}
              options={PAGE_SIZES.map((size) => ({ value: size, label: t('perPage', { size }) }))}
            />
          </FormGroup>
          <Pager
            page={filters.start}
            pageSize={filters.pageSize}
            total={page.totalCount}
            disabled={query.isFetching}
            onChange={(start) => setFilters((current) => ({ ...current, start }))}
          />
        </div>
      )}
    </section>
  );
}

function chosenOf({ deviceId, deviceName, typeId, deviceTypeName }: Device): ChosenDevice {
  return { deviceId, deviceName, typeId, deviceTypeName };
}

interface ToolbarProps {
  filters: Filters;
  onRefine: (change: Partial<Filters>) => void;
  onRefresh: () => void;
  refreshing: boolean;
}

function Toolbar({ filters, onRefine, onRefresh, refreshing }: ToolbarProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.page' });
  return (
    <div className="jc-rpage-toolbar">
      <NameSearch
        value={filters.deviceName}
        onSearch={(deviceName) => onRefine({ deviceName })}
        placeholder={t('devices.search')}
        searchText={t('devices.searchButton')}
        clearLabel={t('devices.clearSearch')}
        testId="recharge-search"
        outlined
      />
      <SegmentedControl
        aria-label={t('devices.service')}
        value={filters.service}
        onValueChange={(value) => onRefine({ service: value as ServiceFilter })}
        options={SERVICE_FILTERS.map((value) => ({ value, label: t(`devices.serviceFilter.${value}`) }))}
        data-testid="recharge-service-filter"
      />
      <span className="jc-rpage-spacer" />
      <Button icon={<RefreshIcon />} variant="minimal" text={t('refresh')} loading={refreshing} onClick={onRefresh} />
    </div>
  );
}

interface DeviceTableProps {
  devices: readonly Device[];
  selection: BatchSelection<ChosenDevice>;
  /** The rows are the previous page's while the next one loads. */
  stale: boolean;
  onToggle: (device: Device) => void;
}

function DeviceTable({ devices, selection, stale, onToggle }: DeviceTableProps) {
  const { t } = useTranslation('recharge', { keyPrefix: 'recharge.page' });
  const { edition } = editionConfig();
  const international = edition === 'international';
  const typeId = selectedTypeId(selection);
  const chosenType = typeId === null ? null : selection.values().next().value?.deviceTypeName ?? null;
  const readOnlyReason = useReadOnlyReason();
  // A click anywhere on a row chooses it; the checkbox (and its label) toggles by itself.
  const rowClick = (device: Device, enabled: boolean) => (event: MouseEvent<HTMLTableRowElement>) => {
    if (!enabled || (event.target as HTMLElement).closest('label, input, a, button')) return;
    onToggle(device);
  };
  return (
    <HTMLTable compact className={`jc-rpage-table${stale ? ' jc-stale' : ''}`} data-testid="recharge-device-table">
      <thead>
        <tr>
          <th scope="col" className="jc-rpage-check">
            <span className={Classes.TEXT_OVERFLOW_ELLIPSIS}>{t('devices.column.select')}</span>
          </th>
          <th scope="col">{t('devices.column.name')}</th>
          <th scope="col">{t('devices.column.type')}</th>
          <th scope="col">{t('devices.column.guid')}</th>
          <th scope="col">{t('devices.column.level')}</th>
          <th scope="col">{t('devices.column.expiry')}</th>
          <th scope="col" className="jc-num">{t('devices.column.sms')}</th>
          {!international && <th scope="col" className="jc-num">{t('devices.column.voice')}</th>}
          {international && <th scope="col">{t('devices.column.countryCode')}</th>}
        </tr>
      </thead>
      <tbody>
        {devices.map((device) => {
          const checked = selection.has(device.deviceId);
          const writable = mayChange(device);
          const enabled = writable && canSelect(selection, device.deviceId, chosenOf(device));
          const otherType = !enabled && typeId !== null && typeId !== device.typeId;
          const reason = !writable
            ? readOnlyReason
            : otherType
              ? t('devices.otherType', { type: chosenType ?? '' })
              : !enabled
                ? t('devices.limit', { max: MAX_BATCH_DEVICES })
                : undefined;
          return (
            <tr
              key={device.deviceId}
              className={checked ? 'is-selected' : enabled ? 'is-selectable' : 'is-unavailable'}
              onClick={rowClick(device, enabled)}
              title={reason}
              data-testid="recharge-device-row"
              data-device-id={device.deviceId}
              data-device-name={device.deviceName}
              data-expiry={device.serviceExpiredDate ?? ''}
              data-access={device.access}
            >
              <td className="jc-rpage-check">
                <Checkbox
                  checked={checked}
                  disabled={!enabled}
                  onChange={() => onToggle(device)}
                  aria-label={t('devices.choose', { name: device.deviceName })}
                  data-testid="recharge-device-check"
                  className="jc-rpage-checkbox"
                />
              </td>
              <td>
                <span className="jc-rpage-name-line">
                  <span className="jc-rpage-name">{device.deviceName}</span>
                  {!writable && <ReadOnlyTag />}
                </span>
              </td>
              <td>
                <Tag minimal round className="jc-rpage-type" data-testid="recharge-device-type">
                  {device.deviceTypeName}
                </Tag>
              </td>
              <td className="jc-mono">{device.deviceGuid}</td>
              <td>{device.levelName ?? <span className={Classes.TEXT_MUTED}>{NO_VALUE}</span>}</td>
              <td data-testid="recharge-device-expiry">
                <ServiceExpiry device={device} />
              </td>
              <td className="jc-num">
                <StockCount count={device.smsCount} />
              </td>
              {!international && (
                <td className="jc-num">
                  <StockCount count={device.voiceCount} />
                </td>
              )}
              {international && <td>{dialCode(device.countryCode)}</td>}
            </tr>
          );
        })}
      </tbody>
    </HTMLTable>
  );
}
