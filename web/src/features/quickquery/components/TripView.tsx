/** What a receiver sees of a trip: its state, limits, chart, route, figures per device and excursions. */
import { Callout, Card, H3, H4, Spinner, Tag, type Intent } from '@blueprintjs/core';
import type { TFunction } from 'i18next';
import { Suspense, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '@/components/chart/LazyEChart';
import { echartsLocale } from '@/components/chart/chartOption';
import { RouteMap } from '@/components/map/RouteMap';
import { formatInstant } from '@/lib/units';
import type { DeviceFigures, Trip } from '../api/quickQuery';
import { tripChartOption } from '@/components/chart/tripChart';

const STATE_INTENT: Record<number, Intent> = { 0: 'none', 1: 'primary', 2: 'success' };

export const celsius = (value: number | null | undefined) => (value == null ? '—' : `${value.toFixed(1)} °C`);

export function duration(t: TFunction, seconds: number): string {
  return t('duration', { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) });
}

export function StateTag({ state }: { state: number }) {
  const { t } = useTranslation('quickquery');
  return <Tag intent={STATE_INTENT[state] ?? 'none'} round data-testid="trip-state">{t(`state.${state}`)}</Tag>;
}

export function limitsText(t: TFunction, trip: Pick<Trip, 'upperLimit' | 'lowerLimit'>): string {
  if (trip.upperLimit == null && trip.lowerLimit == null) return t('noLimit');
  return t('limitRange', { lower: celsius(trip.lowerLimit), upper: celsius(trip.upperLimit) });
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="jc-qq-fact" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export interface TripViewProps {
  trip: Trip;
  /** A narrow screen: a shorter chart with smaller margins. */
  narrow?: boolean;
  /** Actions under the facts (the PDF download of a shared trip). */
  actions?: ReactNode;
}

export function TripView({ trip, narrow = false, actions }: TripViewProps) {
  const { t, i18n } = useTranslation('quickquery');
  const language = i18n.language;
  const option = useMemo(() => tripChartOption(trip, { upper: t('upper'), lower: t('lower') }, narrow), [trip, t, narrow]);
  const hasReadings = trip.devices.some((d) => d.points.length > 0);
  const routeLabels = { map: t('route.title'), start: t('route.start'), end: t('route.end'), empty: t('route.empty') };
  return (
    <div className="jc-qq-trip" data-testid="trip-view">
      <Card className="jc-qq-card" elevation={0}>
        <div className="jc-qq-trip-head">
          <H3 className="jc-qq-number" data-testid="trip-number">{trip.orderNum ?? '—'}</H3>
          <StateTag state={trip.state} />
        </div>
        <dl className="jc-qq-facts">
          <Fact label={t('field.goods')}>{trip.goodsName ?? '—'}</Fact>
          <Fact label={t('field.limits')} testId="trip-limits">{limitsText(t, trip)}</Fact>
          <Fact label={t('field.started')}>{formatInstant(trip.startedAt, language, false)}</Fact>
          <Fact label={t('field.finished')}>{formatInstant(trip.finishedAt, language, false)}</Fact>
          <Fact label={t('field.alarms')}>{trip.alarmCount}</Fact>
          <Fact label={t('field.verification')}><code data-testid="trip-code">{trip.verificationCode}</code></Fact>
        </dl>
        {trip.corrected && <Callout intent="primary" compact>{t('corrected')}</Callout>}
        {actions && <div className="jc-qq-actions">{actions}</div>}
      </Card>
      <Card className="jc-qq-card" elevation={0}>
        <H4>{t('chart')}</H4>
        {hasReadings ? (
          <Suspense fallback={<Spinner />}>
            <div role="img" aria-label={t('chart')} data-testid="trip-chart">
              <EChart option={option} locale={echartsLocale(language)} className="jc-qq-chart" />
            </div>
          </Suspense>
        ) : (
          <p className="jc-qq-muted" data-testid="trip-no-readings">{t('noReadings')}</p>
        )}
      </Card>
      <Card className="jc-qq-card" elevation={0} data-testid="trip-route">
        <H4>{t('route.title')}</H4>
        <RouteMap devices={trip.devices} labels={routeLabels} />
      </Card>
      {trip.devices.map((device, index) => (
        <DeviceCard key={`${device.deviceName}-${index}`} device={device} deltaH={trip.deltaH} />
      ))}
    </div>
  );
}

function DeviceCard({ device, deltaH }: { device: DeviceFigures; deltaH: number }) {
  const { t, i18n } = useTranslation('quickquery');
  return (
    <Card className="jc-qq-card" elevation={0} data-testid="trip-device">
      <H4>{device.deviceName}</H4>
      <dl className="jc-qq-facts jc-qq-figures">
        <Fact label={t('figures.count')}>{device.count}</Fact>
        <Fact label={t('figures.minimum')}>{celsius(device.minimum)}</Fact>
        <Fact label={t('figures.maximum')}>{celsius(device.maximum)}</Fact>
        <Fact label={t('figures.mean')}>{celsius(device.mean)}</Fact>
        <Fact label={t('figures.mkt')} testId="trip-mkt">
          <span title={t('mktHint', { deltaH })}>{celsius(device.mkt)}</span>
        </Fact>
        <Fact label={t('figures.outOfRange')}>{duration(t, device.outOfRangeSeconds)}</Fact>
      </dl>
      <H4 className="jc-qq-sub">{t('excursions')}</H4>
      {device.excursions.length === 0 ? (
        <p className="jc-qq-muted">{t('noExcursions')}</p>
      ) : (
        <ul className="jc-qq-excursions" data-testid="trip-excursions">
          {device.excursions.map((e) => (
            <li key={e.start}>
              <Tag minimal intent={e.above ? 'danger' : 'primary'}>
                {t(e.above ? 'excursionAbove' : 'excursionBelow', { extreme: celsius(e.extreme) })}
              </Tag>{' '}
              <span>{formatInstant(e.start, i18n.language, false)} – {formatInstant(e.end, i18n.language, false)}</span>{' '}
              <span className="jc-qq-muted">({duration(t, e.seconds)})</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
