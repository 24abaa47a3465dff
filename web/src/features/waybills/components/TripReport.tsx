import { Callout, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { TimelineLineChartIcon } from '@blueprintjs/icons';
import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '@/components/chart/LazyEChart';
import { echartsLocale } from '@/components/chart/chartOption';
import { tripChartOption } from '@/components/chart/tripChart';
import { RouteMap } from '@/components/map/RouteMap';
import { formatInstant } from '@/lib/units';
import type { OwnerTrip } from '../api/waybills';

const fixed = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(1));

/** "2 h 5 min" or "4 min 10 s". */
export function formatDuration(seconds: number, t: (key: string, values: Record<string, number>) => string): string {
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  return h > 0 ? t('duration.h', { h, m }) : t('duration.m', { m, s });
}

/** The trip report: figures per device (with MKT and time out of range), excursions, the chart and the routes. */
export function TripReport({ trip }: { trip: OwnerTrip }) {
  const { t, i18n } = useTranslation('waybills');
  const option = useMemo(() => tripChartOption(trip, { upper: t('report.upper'), lower: t('report.lower') }), [trip, t]);
  const when = (iso: string) => formatInstant(iso, i18n.language);
  const excursions = trip.devices.flatMap((device) => device.excursions.map((e) => ({ ...e, deviceName: device.deviceName })));
  if (trip.devices.length === 0) return <NonIdealState icon={<TimelineLineChartIcon />} title={t('report.noDevices')} />;
  const hasPoints = trip.devices.some((d) => d.points.length > 0);
  const routeLabels = { map: t('section.route'), start: t('route.start'), end: t('route.end'), empty: t('route.empty') };
  return (
    <div data-testid="waybill-report">
      {trip.corrected && trip.spanStart && trip.spanEnd && (
        <Callout intent="warning">{t('report.corrected', { from: when(trip.spanStart), to: when(trip.spanEnd) })}</Callout>
      )}
      <div className="jc-wb-scroll">
        <HTMLTable compact striped className="jc-wb-table" data-testid="waybill-figures">
          <thead>
            <tr>
              <th>{t('report.device')}</th><th>{t('report.count')}</th><th>{t('report.minimum')}</th><th>{t('report.maximum')}</th>
              <th>{t('report.mean')}</th><th>{t('report.mkt')}</th><th>{t('report.outOfRange')}</th>
            </tr>
          </thead>
          <tbody>
            {trip.devices.map((d, i) => (
              <tr key={`${d.deviceName}-${i}`} data-testid="waybill-figure-row">
                <td data-label={t('report.device')}>{d.deviceName}</td>
                <td data-label={t('report.count')}>{d.count}</td>
                <td data-label={t('report.minimum')}>{fixed(d.minimum)}</td>
                <td data-label={t('report.maximum')}>{fixed(d.maximum)}</td>
                <td data-label={t('report.mean')}>{fixed(d.mean)}</td>
                <td data-label={t('report.mkt')} data-testid="waybill-mkt">{fixed(d.mkt)}</td>
                <td data-label={t('report.outOfRange')}>{formatDuration(d.outOfRangeSeconds, t)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      <p className="jc-wb-section">{t('section.excursions')}</p>
      {excursions.length === 0 ? <p data-testid="waybill-no-excursions">{t('report.noExcursions')}</p> : (
        <div className="jc-wb-scroll">
          <HTMLTable compact striped className="jc-wb-table" data-testid="waybill-excursions">
            <thead>
              <tr><th>{t('report.device')}</th><th /><th>{t('report.start')}</th><th>{t('report.end')}</th>
                <th>{t('report.duration')}</th><th>{t('report.extreme')}</th></tr>
            </thead>
            <tbody>
              {excursions.map((e, i) => (
                <tr key={i}>
                  <td data-label={t('report.device')}>{e.deviceName}</td>
                  <td>{t(e.above ? 'report.above' : 'report.below')}</td>
                  <td data-label={t('report.start')}>{when(e.start)}</td>
                  <td data-label={t('report.end')}>{when(e.end)}</td>
                  <td data-label={t('report.duration')}>{formatDuration(e.seconds, t)}</td>
                  <td data-label={t('report.extreme')}>{fixed(e.extreme)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      <p className="jc-wb-section">{t('section.chart')}</p>
      {hasPoints ? (
        <Suspense fallback={<Spinner size={32} />}>
          <EChart option={option} locale={echartsLocale(i18n.language)} className="jc-wb-chart" />
        </Suspense>
      ) : <p data-testid="waybill-no-data">{t('report.noData')}</p>}
      <section data-testid="waybill-route">
        <p className="jc-wb-section">{t('section.route')}</p>
        <RouteMap devices={trip.devices} labels={routeLabels} />
      </section>
      <p className="jc-wb-muted" data-testid="waybill-verification">{t('report.verification', { code: trip.verificationCode })}</p>
    </div>
  );
}
