import { Callout, Classes, Icon, Tag } from '@blueprintjs/core';
import {
  BanCircleIcon, FeedIcon, OfflineIcon, RefreshIcon, TemperatureIcon, TimeIcon, TintIcon,
} from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { REALTIME_REFRESH_MS, type DeviceDetail, type Probe } from '../api/devices';
import { formatInstant, formatValue } from '@/lib/units';
import { deviceState, probesOf, readingState, type ReadingState } from '../values';

const READING_INTENT: Readonly<Record<ReadingState, 'danger' | 'success' | 'none'>> = {
  above: 'danger',
  below: 'danger',
  normal: 'success',
  none: 'none',
};

/** The last reading of each probe against its limits, and how the device is connected; asked again every 10 s. */
export function RealtimePanel({ device, updatedAt }: { device: DeviceDetail; updatedAt: number }) {
  const { t, i18n } = useTranslation('devices');
  const probes = probesOf(device.probes);
  const state = deviceState(device);
  return (
    <div className="jc-realtime" data-testid="device-realtime">
      {state === 'disabled' && (
        <Callout intent="warning" icon={<BanCircleIcon />} compact className="jc-realtime-note">
          {t('realtime.disabledNote')}
        </Callout>
      )}
      {device.lastReading === null ? (
        <Callout icon={<TimeIcon />} compact className="jc-realtime-note">
          {t('realtime.noReading')}
        </Callout>
      ) : null}
      <div className="jc-realtime-grid">
        {probes.map((probe) => (
          <ProbeCard key={probe.probe} device={device} probe={probe} />
        ))}
        <div className="jc-realtime-card jc-realtime-link" data-testid="device-connection">
          <div className="jc-realtime-label">
            <Icon icon={device.online === 1 ? <FeedIcon /> : <OfflineIcon />} />
            <span>{t('realtime.connection')}</span>
          </div>
          <div className={device.online === 1 ? 'jc-realtime-status is-online' : 'jc-realtime-status'}>
            {t(device.online === 1 ? 'state.online' : state === 'notEnabled' ? 'state.notEnabled' : 'state.offline')}
          </div>
          <dl className="jc-realtime-facts">
            <dt>{t('realtime.lastSeen')}</dt>
            <dd>{formatInstant(device.lastSeenAt, i18n.language)}</dd>
            <dt>{t('realtime.readAt')}</dt>
            <dd>{formatInstant(device.lastReading?.ts, i18n.language)}</dd>
          </dl>
        </div>
      </div>
      <p className={`${Classes.TEXT_MUTED} jc-realtime-refresh`} data-testid="device-refreshed">
        <Icon icon={<RefreshIcon />} size={12} />
        {t('realtime.refreshEvery', { seconds: REALTIME_REFRESH_MS / 1000 })}
        {updatedAt > 0 && <> · {t('realtime.updatedAt', { time: formatInstant(new Date(updatedAt).toISOString(), i18n.language) })}</>}
      </p>
    </div>
  );
}

function ProbeCard({ device, probe }: { device: DeviceDetail; probe: Probe }) {
  const { t } = useTranslation('devices');
  const { temperatureUnit: unit, displayPrecision: precision } = device;
  const raw = probe.probe === 'h' ? device.lastReading?.humidity : device.lastReading?.temperature;
  const state = readingState(raw, probe);
  // Without a limit a value is neither in nor out: no verdict, no colour.
  const limited = probe.upperLimit !== null || probe.lowerLimit !== null;
  const limit = (value: number | null) => (value === null ? t('realtime.noLimit') : formatValue(probe.probe, value, unit, precision));
  return (
    <div
      className={`jc-realtime-card jc-realtime-card--${state}${limited ? ' has-limits' : ''}`}
      data-testid={`probe-${probe.probe}`}
      data-state={state}
    >
      <div className="jc-realtime-label">
        <Icon icon={probe.probe === 'h' ? <TintIcon /> : <TemperatureIcon />} />
        <span>{t(`probe.${probe.probe}`, { defaultValue: probe.probe })}</span>
        {(limited || state === 'none') && (
          <Tag minimal round intent={READING_INTENT[state]} className="jc-realtime-state">
            {t(`realtime.state.${state}`)}
          </Tag>
        )}
      </div>
      <div className="jc-realtime-value" data-testid={`probe-${probe.probe}-value`}>
        {formatValue(probe.probe, raw, unit, precision)}
      </div>
      <dl className="jc-realtime-facts">
        <dt>{t('realtime.upper')}</dt>
        <dd>{limit(probe.upperLimit)}</dd>
        <dt>{t('realtime.lower')}</dt>
        <dd>{limit(probe.lowerLimit)}</dd>
        {!probe.ruleEnabled && limited && (
          <>
            <dt>{t('realtime.rule')}</dt>
            <dd>{t('realtime.ruleOff')}</dd>
          </>
        )}
      </dl>
    </div>
  );
}
