import { Classes, Tag } from '@blueprintjs/core';
import { ArchiveIcon, BanCircleIcon, DisableIcon, EndorsedIcon, FeedIcon, OfflineIcon, WarningSignIcon } from '@blueprintjs/icons';
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { daysUntil, localToday } from '@/lib/expiry';
import type { Device } from '@/lib/api/devices';
import { NO_VALUE } from '@/lib/units';
import { deviceState, serviceState, STATE_INTENT, type DeviceState, type ServiceState, type StateOf } from '@/lib/deviceValues';
import './deviceTags.css';

const STATE_ICON: Readonly<Record<DeviceState, JSX.Element>> = {
  online: <FeedIcon />,
  alarm: <WarningSignIcon />,
  offline: <OfflineIcon />,
  notEnabled: <DisableIcon />,
  disabled: <BanCircleIcon />,
  scrapped: <ArchiveIcon />,
};

/** The device's one state: online, alarm, offline, not enabled, disabled or scrapped. */
export function StateTag({ device, large = false }: { device: StateOf; large?: boolean }) {
  const { t } = useTranslation('devices');
  const state = deviceState(device);
  return (
    <Tag
      minimal={state !== 'alarm'}
      round
      size={large ? 'large' : 'medium'}
      intent={STATE_INTENT[state]}
      icon={STATE_ICON[state]}
      className={`jc-device-state jc-device-state--${state}`}
      data-testid="device-state"
      data-state={state}
    >
      {t(`state.${state}`)}
    </Tag>
  );
}

const SERVICE_INTENT: Readonly<Record<ServiceState, 'success' | 'warning' | 'danger' | 'none'>> = {
  lifelong: 'success',
  expiring: 'warning',
  expired: 'danger',
  active: 'none',
  none: 'none',
};

/** The service expiry date with its state: lifelong, days left when within 30 days, or how long ago it expired. */
export function ServiceExpiry({ device }: { device: Pick<Device, 'serviceExpiredDate' | 'vipInfo'> }) {
  const { t } = useTranslation('devices');
  const state = serviceState(device);
  const date = device.serviceExpiredDate;
  if (state === 'none' || !date) return <span className={Classes.TEXT_MUTED}>{NO_VALUE}</span>;
  if (state === 'lifelong') {
    return (
      <Tag minimal round intent="success" icon={<EndorsedIcon />} data-testid="service-state" data-state={state}>
        {t('service.lifelong')}
      </Tag>
    );
  }
  const days = daysUntil(date, localToday());
  let label: string | null = null;
  if (state === 'expired') label = t('service.expiredAgo', { count: Math.max(0, -days) });
  else if (state === 'expiring') label = days <= 0 ? t('service.expiresToday') : t('service.daysLeft', { count: days });
  return (
    <span className="jc-device-expiry" data-testid="service-state" data-state={state}>
      <span className={state === 'expired' ? 'jc-device-expiry-date is-expired' : 'jc-device-expiry-date'}>{date}</span>
      {label && (
        <Tag minimal round intent={SERVICE_INTENT[state]}>
          {label}
        </Tag>
      )}
    </span>
  );
}
