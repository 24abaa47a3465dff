import { AnchorButton, Button, Card, Classes, H2, NonIdealState, Spinner, Tab, Tabs, Icon } from '@blueprintjs/core';
import {
  ArrowLeftIcon, CogIcon, CreditCardIcon, DashboardIcon, ErrorIcon, HistoryIcon, InfoSignIcon, LightningIcon, LockIcon,
  MapIcon, RefreshIcon, NotificationsIcon, SearchIcon, TimelineLineChartIcon, WarningSignIcon, WrenchIcon,
} from '@blueprintjs/icons';
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '@/lib/http';
import { usePermissions } from '@/lib/permissions';
import { useRechargeFlow } from '@/hooks/useRechargeFlow';
import { useSlots } from '@/lib/slots';
import { ELEMENT_CODES, mayChange, mayView } from '@/lib/access';
import { useDevice, type DeviceDetail } from '@/lib/api/devices';
import { AlarmRecords } from './components/AlarmRecords';
import { AlarmSettings } from './components/AlarmSettings';
import { BasicInfo } from './components/BasicInfo';
import { ExportDeviceButton } from './components/ExportDialog';
import { StateTag } from '@/components/DeviceTags';
import { EnergyPanel } from './components/EnergyPanel';
import { HistoryPanel } from './components/HistoryPanel';
import { MapPanel } from './components/MapPanel';
import { ReadOnlyReason, ReadOnlyTag, SharedTag } from '@/components/ReadOnly';
import { RealtimePanel } from './components/RealtimePanel';
import { DeviceActions } from './detail/DeviceActions';
import { MaintenanceTab } from './detail/MaintenanceTab';
import { OperationLogTab } from './detail/OperationLogTab';
import { ParamsTab } from './detail/ParamsTab';
import { RechargeTab } from './detail/RechargeTab';
import './detail/detailTabs.css';
import { pathOfScene, rechargeHref } from '@/lib/deviceListQuery';
import type { Scene } from '@/lib/api/devices';
import './devices.css';

/**
 * The spec's order (seed 001 section 2): real-time data, chart, alarm records, push config, map,
 * basic info, parameter settings, recharge, energy, operation log, maintenance records.
 */
export const DETAIL_TABS = ELEMENT_CODES;
export type DetailTab = (typeof DETAIL_TABS)[number];

export function isDetailTab(value: unknown): value is DetailTab {
  return typeof value === 'string' && (DETAIL_TABS as readonly string[]).includes(value);
}

/** The device id of the address, or null when it is not one. */
export function parseDeviceId(value: string | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** One device: real-time values, history chart, alarm records, alarm settings, basic information, parameters,
 * recharge, operation log and maintenance records, as tabs. */
export default function DeviceDetailPage() {
  const { t } = useTranslation('devices');
  const deviceId = parseDeviceId(useParams().deviceId);
  const mayView = usePermissions().has('device.detail');
  if (!mayView) {
    return <NonIdealState icon={<LockIcon />} title={t('detail.noPermission')} className="jc-devices-state" />;
  }
  if (deviceId === null) return <NotFound />;
  return <DeviceDetailView deviceId={deviceId} />;
}

function NotFound() {
  const { t } = useTranslation('devices');
  return (
    <div data-testid="device-not-found">
      <NonIdealState
        icon={<SearchIcon />}
        title={t('detail.notFound')}
        description={t('detail.notFoundHint')}
        action={
          <Link to="/device/list" className={Classes.BUTTON}>
            <span className={Classes.BUTTON_TEXT}>{t('detail.back')}</span>
          </Link>
        }
        className="jc-devices-state"
      />
    </div>
  );
}

function DeviceDetailView({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('devices');
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const query = useDevice(deviceId);
  const device = query.data;
  // A tab shows when the caller may see its element; the energy tab only for a device with an energy meter.
  const visible = device === undefined ? [] : DETAIL_TABS.filter((id) => mayView(device, id) && (id !== 'energy' || device.energy));
  const tab: DetailTab | undefined = isDetailTab(tabParam) && visible.includes(tabParam) ? tabParam : visible[0];

  if (device === undefined) {
    if (query.error instanceof ApiError && query.error.status === 404) return <NotFound />;
    if (query.isError) {
      return (
        <NonIdealState
          icon={<ErrorIcon />}
          title={t('detail.loadFailed')}
          action={<Button icon={<RefreshIcon />} text={t('list.retry')} onClick={() => void query.refetch()} />}
          className="jc-devices-state"
        />
      );
    }
    return <Spinner size={40} className="jc-devices-state" />;
  }

  const first = visible[0];
  const choose = (next: DetailTab) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === first) copy.delete('tab');
        else copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );

  return (
    <div className="jc-devices jc-device-detail" data-testid="device-detail-page" data-device-id={device.deviceId}>
      <DetailHeader device={device} />
      <Card className="jc-devices-card" elevation={0}>
        {tab === undefined ? (
          <NonIdealState icon={<LockIcon />} title={t('sharing.nothingGranted')} className="jc-devices-state"
            data-testid="device-nothing-granted" />
        ) : (
        <Tabs
          id="jc-device-detail-tabs"
          className="jc-devices-tabs"
          selectedTabId={tab}
          onChange={(id) => isDetailTab(id) && choose(id)}
          renderActiveTabPanelOnly
          size="large"
        >
          {visible.map((id) => (
            <Tab key={id} id={id} title={t(TAB_TITLES[id])} icon={TAB_ICONS[id]} data-testid={`device-tab-${id}`}
              panel={panelOf(id, device, query.dataUpdatedAt)} />
          ))}
        </Tabs>
        )}
      </Card>
    </div>
  );
}

const TAB_TITLES: Readonly<Record<DetailTab, string>> = {
  realtime: 'detail.tab.realtime', chart: 'detail.tab.chart', alarms: 'detail.tab.alarms', push: 'detail.tab.push',
  map: 'detail.tab.map', info: 'detail.tab.info', params: 'detailTabs.params', recharge: 'detailTabs.recharge',
  energy: 'detail.tab.energy', log: 'detailTabs.log', maintenance: 'detailTabs.maintenance',
};
const TAB_ICONS: Readonly<Record<DetailTab, JSX.Element>> = {
  realtime: <DashboardIcon />, chart: <TimelineLineChartIcon />, alarms: <WarningSignIcon />, push: <NotificationsIcon />,
  map: <MapIcon />, info: <InfoSignIcon />, params: <CogIcon />, recharge: <CreditCardIcon />, energy: <LightningIcon />,
  log: <HistoryIcon />, maintenance: <WrenchIcon />,
};

function panelOf(id: DetailTab, device: DeviceDetail, updatedAt: number): JSX.Element {
  switch (id) {
    case 'realtime': return <RealtimePanel device={device} updatedAt={updatedAt} />;
    case 'chart': return <HistoryPanel device={device} />;
    case 'alarms': return <AlarmRecords device={device} />;
    case 'push': return <AlarmSettings device={device} />;
    case 'map': return <MapPanel device={device} />;
    case 'info': return <><BasicInfo device={device} /><DeviceActions device={device} /></>;
    case 'params': return <ParamsTab device={device} />;
    case 'recharge': return <RechargeTab device={device} />;
    case 'energy': return <EnergyPanel device={device} />;
    case 'log': return <OperationLogTab device={device} />;
    case 'maintenance': return <MaintenanceTab device={device} />;
  }
}

function DetailHeader({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const held = usePermissions();
  const recharge = useRechargeFlow();
  const { AutoRenewTag } = useSlots();
  const scene = (device.typeScenes[0] ?? 1) as Scene;
  const writable = mayChange(device);
  return (
    <header className="jc-device-head">
      <Link to={pathOfScene(scene)} className="jc-device-back" aria-label={t('detail.back')}>
        <Icon icon={<ArrowLeftIcon />} />
        <span>{t(`scene.${scene}`)}</span>
      </Link>
      <div className="jc-device-title">
        <H2 className="jc-device-name" data-testid="device-name">
          {device.deviceName}
        </H2>
        <StateTag device={device} large />
        {device.sharedWithMe ? <SharedTag ownerName={device.ownerName} /> : !writable && <ReadOnlyTag />}
      </div>
      <div className="jc-device-sub">
        <span className="jc-mono">{device.deviceGuid}</span>
        <span aria-hidden="true">·</span>
        <span>{device.deviceTypeName}</span>
        {device.levelName && (
          <>
            <span aria-hidden="true">·</span>
            <span>{device.levelName}</span>
          </>
        )}
        {device.agreementStatus > 0 && (
          <AutoRenewTag device={{ deviceId: device.deviceId, deviceName: device.deviceName }} readOnly={!writable} />
        )}
      </div>
      <div className="jc-device-actions">
        <ExportDeviceButton device={device} />
        {held.has('consumer.recharge') && !writable && (
          <ReadOnlyReason className="jc-device-recharge-anchor" device={device}>
            <AnchorButton intent="primary" icon={<CreditCardIcon />} disabled text={t('list.recharge')} data-testid="device-detail-recharge" />
          </ReadOnlyReason>
        )}
        {held.has('consumer.recharge') && writable && device.scrappedAt && (
          <span title={t('list.scrappedNoRecharge')} className="jc-device-recharge-anchor">
            <AnchorButton intent="primary" icon={<CreditCardIcon />} disabled text={t('list.recharge')} data-testid="device-detail-recharge" />
          </span>
        )}
        {held.has('consumer.recharge') && writable && !device.scrappedAt && (
          <Link
            to={rechargeHref([device.deviceId])}
            onClick={recharge.openOnClick([device.deviceId])}
            className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY} jc-device-recharge`}
            data-testid="device-detail-recharge"
          >
            <Icon icon={<CreditCardIcon />} />
            <span className={Classes.BUTTON_TEXT}>{t('list.recharge')}</span>
          </Link>
        )}
      </div>
      {recharge.drawer}
    </header>
  );
}
