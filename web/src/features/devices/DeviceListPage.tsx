import {
  AnchorButton,
  Button,
  Card,
  Classes,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  NonIdealState,
  Spinner,
  Tab,
  Tabs,
} from '@blueprintjs/core';
import { ErrorIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { findRoute } from '@/app/guard';
import { NameSearch } from '@/components/NameSearch';
import { Pager } from '@/components/Pager';
import { usePermissions } from '@/lib/permissions';
import { AutoRenewTag } from '@/features/recharge/AutoRenewTag';
import { useRechargeFlow } from '@/features/recharge/RechargeFlow';
import { mayChange } from './access';
import { useDevicePage, useSceneTotals, type Device, type Scene } from './api/devices';
import { ServiceExpiry, StateTag } from './components/DeviceTags';
import { ReadOnlyReason, ReadOnlyTag } from './components/ReadOnly';
import {
  deviceQuery,
  detailHref,
  PAGE_SIZES,
  pathOfScene,
  readFilters,
  rechargeHref,
  SCENE_TABS,
  sceneOfRoute,
  SERVICE_FILTERS,
  STATUS_FILTERS,
  writeFilters,
  type ListFilters,
} from './listQuery';
import { formatInstant, formatValue } from '@/lib/units';
import { deviceState } from './values';
import './devices.css';

/** The device list (list mode) of one tab: cold-chain monitoring, smart cold storage or smart freezers. */
export default function DeviceListPage() {
  const { t } = useTranslation('devices');
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const scene = sceneOfRoute(findRoute(location.pathname)?.name);
  const filters = readFilters(params);
  const query = useDevicePage(deviceQuery(scene, filters));
  const page = query.data;
  const others = SCENE_TABS.filter((tab) => tab.scene !== scene).map((tab) => tab.scene);
  const otherTotals = useSceneTotals(deviceQuery(scene, filters), others);
  const recharge = useRechargeFlow();
  const totalOf = (tabScene: Scene): number | undefined =>
    tabScene === scene ? page?.totalCount : otherTotals[others.indexOf(tabScene)]?.data;

  const go = (next: ListFilters, path = location.pathname) => {
    const search = writeFilters(next).toString();
    navigate(search ? `${path}?${search}` : path);
  };
  // Any new filter starts again on page 1.
  const refine = (change: Partial<ListFilters>) => go({ ...filters, start: 1, ...change });

  return (
    <div className="jc-devices" data-testid="device-list-page">
      <Card className="jc-devices-card" elevation={0}>
        <Tabs
          id="jc-device-scenes"
          className="jc-devices-tabs"
          selectedTabId={scene}
          onChange={(id) => go({ ...filters, start: 1 }, pathOfScene(Number(id) as Scene))}
          size="large"
        >
          {SCENE_TABS.map((tab) => {
            const total = totalOf(tab.scene);
            return (
              <Tab
                key={tab.scene}
                id={tab.scene}
                title={t(`scene.${tab.scene}`)}
                tagContent={total}
                tagProps={{ round: true, minimal: true, intent: tab.scene === scene ? 'primary' : 'none' }}
                data-testid={`device-scene-${tab.scene}`}
              />
            );
          })}
        </Tabs>
        <Toolbar filters={filters} onRefine={refine} onRefresh={() => void query.refetch()} refreshing={query.isFetching} />
        <div className="jc-devices-table-wrap" aria-busy={query.isFetching}>
          {page === undefined ? (
            query.isError ? (
              <NonIdealState
                icon={<ErrorIcon />}
                title={t('list.loadFailed')}
                action={<Button icon={<RefreshIcon />} text={t('list.retry')} onClick={() => void query.refetch()} />}
                className="jc-devices-empty"
              />
            ) : (
              <Spinner size={32} className="jc-devices-loading" />
            )
          ) : page.data.length === 0 ? (
            <div data-testid="device-list-empty">
              <NonIdealState icon={<SearchIcon />} title={t('list.empty')} description={t('list.emptyHint')} className="jc-devices-empty" />
            </div>
          ) : (
            <DeviceTable devices={page.data} stale={query.isPlaceholderData} onRecharge={recharge.openOnClick} />
          )}
        </div>
        {page !== undefined && page.totalCount > 0 && (
          <div className="jc-devices-footer">
            <FormGroup inline label={t('list.pageSize')} labelFor="jc-device-page-size" className="jc-devices-page-size">
              <HTMLSelect
                id="jc-device-page-size"
                value={filters.pageSize}
                onChange={(event) => refine({ pageSize: Number(event.currentTarget.value) })}
                options={PAGE_SIZES.map((size) => ({ value: size, label: t('list.perPage', { size }) }))}
              />
            </FormGroup>
            <Pager
              page={filters.start}
              pageSize={filters.pageSize}
              total={page.totalCount}
              disabled={query.isFetching}
              onChange={(start) => go({ ...filters, start })}
            />
          </div>
        )}
      </Card>
      {recharge.drawer}
    </div>
  );
}

interface ToolbarProps {
  filters: ListFilters;
  onRefine: (change: Partial<ListFilters>) => void;
  onRefresh: () => void;
  refreshing: boolean;
}

function Toolbar({ filters, onRefine, onRefresh, refreshing }: ToolbarProps) {
  const { t } = useTranslation('devices');
  return (
    <div className="jc-devices-toolbar">
      <NameSearch
        value={filters.deviceName}
        onSearch={(deviceName) => onRefine({ deviceName })}
        placeholder={t('list.searchPlaceholder')}
        searchText={t('list.search')}
        clearLabel={t('list.clear')}
        testId="device-search"
      />
      <HTMLSelect
        aria-label={t('list.status')}
        data-testid="device-status-filter"
        value={filters.status}
        onChange={(event) => onRefine({ status: event.currentTarget.value as ListFilters['status'] })}
        options={STATUS_FILTERS.map((value) => ({ value, label: t(`list.statusFilter.${value}`) }))}
      />
      <HTMLSelect
        aria-label={t('list.service')}
        data-testid="device-service-filter"
        value={filters.service}
        onChange={(event) => onRefine({ service: event.currentTarget.value as ListFilters['service'] })}
        options={SERVICE_FILTERS.map((value) => ({ value, label: t(`list.serviceFilter.${value}`) }))}
      />
      <span className="jc-devices-toolbar-spacer" />
      <Button icon={<RefreshIcon />} variant="minimal" text={t('list.refresh')} loading={refreshing} onClick={onRefresh} />
    </div>
  );
}

interface DeviceTableProps {
  devices: readonly Device[];
  stale: boolean;
  /** The click handler of a device's Recharge link (opens the recharge drawer). */
  onRecharge: (deviceIds: readonly number[]) => (event: MouseEvent) => void;
}

function DeviceTable({ devices, stale, onRecharge }: DeviceTableProps) {
  const { t } = useTranslation('devices');
  const held = usePermissions();
  const canOpen = held.has('device.detail');
  const canRecharge = held.has('consumer.recharge');
  return (
    <HTMLTable compact striped className={stale ? 'jc-devices-table jc-stale' : 'jc-devices-table'} data-testid="device-table">
      <thead>
        <tr>
          <th scope="col">{t('list.column.name')}</th>
          <th scope="col">{t('list.column.type')}</th>
          <th scope="col">{t('list.column.state')}</th>
          <th scope="col">{t('list.column.reading')}</th>
          <th scope="col">{t('list.column.level')}</th>
          <th scope="col">{t('list.column.expiry')}</th>
          <th scope="col" className="jc-devices-actions">
            {t('list.column.actions')}
          </th>
        </tr>
      </thead>
      <tbody>
        {devices.map((device) => (
          <DeviceRow key={device.deviceId} device={device} canOpen={canOpen} canRecharge={canRecharge} onRecharge={onRecharge} />
        ))}
      </tbody>
    </HTMLTable>
  );
}

interface DeviceRowProps extends Pick<DeviceTableProps, 'onRecharge'> {
  device: Device;
  /** The account may open a device's detail page. */
  canOpen: boolean;
  /** The account may recharge (the device itself may still be read-only for the caller). */
  canRecharge: boolean;
}

function DeviceRow({ device, canOpen, canRecharge, onRecharge }: DeviceRowProps) {
  const { t } = useTranslation('devices');
  const writable = mayChange(device);
  return (
    <tr data-testid="device-row" data-device-name={device.deviceName} data-access={device.access}>
      <td>
        <div className="jc-devices-name-line">
          {canOpen ? (
            <Link to={detailHref(device.deviceId)} className="jc-devices-name" data-testid="device-link">
              {device.deviceName}
            </Link>
          ) : (
            <span className="jc-devices-name">{device.deviceName}</span>
          )}
          {!writable && <ReadOnlyTag />}
        </div>
        <div className={`jc-mono ${Classes.TEXT_MUTED}`}>{device.deviceGuid}</div>
      </td>
      <td>{device.deviceTypeName}</td>
      <td>
        <StateTag device={device} />
      </td>
      <td>
        <ReadingCell device={device} />
      </td>
      <td>
        <div className="jc-devices-level">
          {device.levelName ?? <span className={Classes.TEXT_MUTED}>—</span>}
          {device.agreementStatus > 0 && (
            <AutoRenewTag device={{ deviceId: device.deviceId, deviceName: device.deviceName }} readOnly={!writable} />
          )}
        </div>
      </td>
      <td>
        <ServiceExpiry device={device} />
      </td>
      <td className="jc-devices-actions">
        {canOpen && (
          <Link to={detailHref(device.deviceId)} className={`${Classes.BUTTON} ${Classes.MINIMAL} ${Classes.SMALL}`}>
            <span className={Classes.BUTTON_TEXT}>{t('list.detail')}</span>
          </Link>
        )}
        {canRecharge &&
          (writable ? (
            <Link
              to={rechargeHref([device.deviceId])}
              onClick={onRecharge([device.deviceId])}
              className={`${Classes.BUTTON} ${Classes.MINIMAL} ${Classes.SMALL} ${Classes.INTENT_PRIMARY}`}
              data-testid="device-recharge"
            >
              <span className={Classes.BUTTON_TEXT}>{t('list.recharge')}</span>
            </Link>
          ) : (
            <ReadOnlyReason>
              <AnchorButton variant="minimal" size="small" disabled text={t('list.recharge')} data-testid="device-recharge" />
            </ReadOnlyReason>
          ))}
      </td>
    </tr>
  );
}

function ReadingCell({ device }: { device: Device }) {
  const { i18n } = useTranslation('devices');
  if (device.lastReadingAt === null) return <span className={Classes.TEXT_MUTED}>—</span>;
  const alarming = deviceState(device) === 'alarm';
  const { temperatureUnit: unit, displayPrecision: precision } = device;
  return (
    <div className="jc-devices-reading">
      <span className={alarming ? 'jc-devices-values is-alarm' : 'jc-devices-values'}>
        {device.temperature !== null && <span>{formatValue('t', device.temperature, unit, precision)}</span>}
        {device.humidity !== null && <span>{formatValue('h', device.humidity, unit, precision)}</span>}
      </span>
      <time className={Classes.TEXT_MUTED} dateTime={device.lastReadingAt}>
        {formatInstant(device.lastReadingAt, i18n.language, false)}
      </time>
    </div>
  );
}
